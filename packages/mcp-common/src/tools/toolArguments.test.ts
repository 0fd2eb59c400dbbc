import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  optionalBoolean,
  optionalBoundedInt,
  optionalInt,
  optionalString,
  parseArguments,
  pathArg,
  requiredInt,
  requiredString,
  stringList,
} from './toolArguments.js';

const input = z.object({
  file: pathArg('The data file.'),
  columns: stringList('Columns.'),
  limit: optionalBoundedInt(1, 1000, 10, 'Samples at most.'),
  where: optionalString('A filter.'),
  offset: optionalInt('Rows to skip.'),
  exact: optionalBoolean(true, 'Exact counts.'),
});

function parsed(raw: unknown) {
  const result = parseArguments(input, raw);
  if (!result.ok) throw new Error(`expected success, got: ${result.message}`);
  return result.value;
}

function problem(raw: unknown, schema: z.ZodType = input): string {
  const result = parseArguments(schema, raw);
  if (result.ok) throw new Error(`expected a failure for ${JSON.stringify(raw)}`);
  return result.message;
}

describe('parseArguments', () => {
  it('applies defaults for absent optional arguments', () => {
    expect(parsed({ file: 'a.csv', columns: ['id'] })).toEqual({
      file: 'a.csv',
      columns: ['id'],
      limit: 10,
      exact: true,
    });
  });

  it('treats an explicit null as absent (LLM clients send nulls)', () => {
    expect(
      parsed({ file: 'a.csv', columns: 'id', limit: null, where: null, offset: null, exact: null }),
    ).toEqual({
      file: 'a.csv',
      columns: ['id'],
      limit: 10,
      exact: true,
    });
  });

  it('names a missing required argument and what it expects', () => {
    expect(problem({ columns: ['id'] })).toBe("Invalid argument 'file': is required (string)");
    expect(problem({ file: null, columns: ['id'] })).toBe("Invalid argument 'file': is required (string)");
  });

  it('treats absent arguments as an empty object', () => {
    expect(problem(undefined)).toContain("Invalid argument 'file'");
  });

  it('names an ill-typed argument and what it got', () => {
    expect(problem({ file: 42, columns: ['id'] })).toBe(
      "Invalid argument 'file': expected string, got integer 42",
    );
    expect(problem({ file: 'a.csv', columns: ['id'], exact: 'yes' })).toBe(
      "Invalid argument 'exact': expected boolean, got string",
    );
  });

  it('reports every bad argument, not only the first', () => {
    const message = problem({ file: '', columns: [] });
    expect(message).toContain("Invalid argument 'file'");
    expect(message).toContain("Invalid argument 'columns'");
  });
});

describe('unknown arguments', () => {
  it('are refused, naming the closest valid argument', () => {
    expect(problem({ file: 'a.csv', columns: 'id', colums: 'id' })).toBe(
      "Invalid argument 'colums': unknown argument; did you mean 'columns'? (this tool takes 'file', 'columns', 'limit', 'where', 'offset', 'exact')",
    );
    expect(problem({ file: 'a.csv', columns: 'id', LIMIT: 3 })).toContain("did you mean 'limit'?");
  });

  it('are refused by a tool that takes none', () => {
    expect(problem({ stray: 1 }, z.object({}))).toBe(
      "Invalid argument 'stray': unknown argument; this tool takes none",
    );
  });
});

describe('stringList', () => {
  it('accepts an array or a comma-separated string', () => {
    expect(parsed({ file: 'a', columns: ['id', 'email'] }).columns).toEqual(['id', 'email']);
    expect(parsed({ file: 'a', columns: 'id, email,,name ' }).columns).toEqual(['id', 'email', 'name']);
  });

  it('refuses an empty list, an empty name and a string of only commas', () => {
    expect(problem({ file: 'a', columns: [] })).toContain("Invalid argument 'columns'");
    expect(problem({ file: 'a', columns: ['id', ''] })).toContain("Invalid argument 'columns.1'");
    expect(problem({ file: 'a', columns: ' , ' })).toBe(
      "Invalid argument 'columns': must name at least one item",
    );
  });

  it('names both accepted shapes for a value of neither', () => {
    expect(problem({ file: 'a', columns: 7 })).toBe(
      "Invalid argument 'columns': expected array or string, got integer 7",
    );
  });
});

describe('optionalBoundedInt', () => {
  it('keeps a value inside its bounds', () => {
    expect(parsed({ file: 'a', columns: 'id', limit: 1000 }).limit).toBe(1000);
  });

  it('names the bound a value crosses', () => {
    expect(problem({ file: 'a', columns: 'id', limit: 0 })).toBe(
      "Invalid argument 'limit': must be at least 1",
    );
    expect(problem({ file: 'a', columns: 'id', limit: 1001 })).toBe(
      "Invalid argument 'limit': must be at most 1000",
    );
  });

  it('refuses fractions and numeric strings', () => {
    expect(problem({ file: 'a', columns: 'id', limit: 1.5 })).toContain("Invalid argument 'limit'");
    expect(problem({ file: 'a', columns: 'id', limit: '10' })).toBe(
      "Invalid argument 'limit': expected number, got string",
    );
  });
});

describe('optionalInt, requiredInt', () => {
  it('refuse a negative count', () => {
    expect(problem({ file: 'a.csv', columns: 'id', offset: -1 })).toBe(
      "Invalid argument 'offset': must be at least 0",
    );
    expect(problem({ n: -5 }, z.object({ n: requiredInt('A count.') }))).toBe(
      "Invalid argument 'n': must be at least 0",
    );
  });
});

describe('requiredString, requiredInt', () => {
  const schema = z.object({ name: requiredString('A name.'), count: requiredInt('A count.') });

  it('refuses an empty string', () => {
    expect(problem({ name: '', count: 1 }, schema)).toBe("Invalid argument 'name': must not be empty");
  });

  it('refuses a missing integer', () => {
    expect(problem({ name: 'x' }, schema)).toBe("Invalid argument 'count': is required (number)");
  });
});

describe('argument descriptions', () => {
  it('carry into the JSON Schema, and pathArg says how relative paths resolve', () => {
    const schema = z.toJSONSchema(input, { io: 'input' }) as {
      properties: Record<string, { description?: string }>;
    };
    for (const [name, property] of Object.entries(schema.properties)) {
      expect(property.description, name).toBeTruthy();
    }
    expect(schema.properties.file?.description).toContain(
      'Relative paths resolve against the first allowed directory',
    );
  });
});
