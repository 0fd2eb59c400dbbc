// What strict MCP clients refuse in a tool's JSON Schema (the Inspector's --strict, clients that coerce
// arguments by `type`): a field without exactly one `type`, e.g. `["string", "null"]` or a bare `anyOf`.
import { Ajv2020 } from 'ajv/dist/2020.js';

/** Every field (object property, at any depth) of `schema` that does not declare exactly one type. */
export function portabilityProblems(schema: unknown, at: string): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const node = schema as Record<string, unknown>;
  const problems: string[] = [];
  for (const [name, property] of Object.entries((node.properties ?? {}) as Record<string, unknown>)) {
    const field = property as Record<string, unknown>;
    if (typeof field.type !== 'string') {
      problems.push(
        `${at}.${name}: type ${JSON.stringify(field.type ?? null)}${field.anyOf ? ' with anyOf' : ''}, not one type`,
      );
    }
    problems.push(...portabilityProblems(field, `${at}.${name}`));
    if (typeof field.items === 'object' && field.items !== null) {
      problems.push(...portabilityProblems(field.items, `${at}.${name}[]`));
    }
  }
  return problems;
}

/**
 * What Ajv (JSON Schema 2020-12) in its strictest mode refuses in `schema`: unknown keywords, union types,
 * keywords used without the type they apply to, required properties that are not defined. An oracle nobody
 * here wrote, standing in for strict MCP clients.
 */
export function strictSchemaProblems(schema: unknown, at: string): string[] {
  const problems: string[] = [];
  const ajv = new Ajv2020({
    strict: true,
    strictTypes: true,
    strictRequired: true,
    allowUnionTypes: false,
    logger: {
      log: () => undefined,
      warn: (message: unknown) => void problems.push(`${at}: ${String(message)}`),
      error: (message: unknown) => void problems.push(`${at}: ${String(message)}`),
    },
  });
  try {
    ajv.compile(schema as object);
  } catch (error) {
    problems.push(`${at}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return problems;
}
