// Argument helpers for what zod alone makes clumsy, and the one place arguments are parsed, so that every
// tool treats nulls, lists and errors the same way.
import { z } from 'zod';

/** A non-empty string the caller must give. */
export function requiredString(description: string) {
  return z.string().min(1, 'must not be empty').describe(description);
}

export function optionalString(description: string) {
  return z.string().optional().describe(description);
}

/** A count or an index: a non-negative integer (chain `.min`/`.max` for a narrower range). */
export function requiredInt(description: string) {
  return z.number().int().min(0).describe(description);
}

/** A count or an index when given: a non-negative integer. */
export function optionalInt(description: string) {
  return z.number().int().min(0).optional().describe(description);
}

/** An integer in [min, max] that falls back to `fallback` when absent. */
export function optionalBoundedInt(min: number, max: number, fallback: number, description: string) {
  return z.number().int().min(min).max(max).default(fallback).describe(description);
}

export function optionalBoolean(fallback: boolean, description: string) {
  return z.boolean().default(fallback).describe(description);
}

// The stringList schemas, listed as plain arrays (see jsonSchemaOverride).
const stringLists = new WeakSet<z.ZodType>();

/**
 * One or more strings, given as an array or as one comma-separated string (models send both). The
 * listing declares `type: array`, so that clients which coerce by type send an array.
 */
export function stringList(description: string) {
  const schema = z
    .union([
      z.array(z.string().min(1, 'must not contain empty names')).min(1, 'must not be empty'),
      z.string(),
    ])
    .transform((value, ctx) => {
      const list = Array.isArray(value)
        ? value
        : value
            .split(',')
            .map((item) => item.trim())
            .filter((item) => item.length > 0);
      if (list.length === 0) ctx.addIssue({ code: 'custom', message: 'must name at least one item' });
      return list;
    })
    .describe(description);
  stringLists.add(schema);
  return schema;
}

/** `z.toJSONSchema` override: a stringList is listed as an array of non-empty strings (one `type`). */
export function jsonSchemaOverride(ctx: { zodSchema: unknown; jsonSchema: Record<string, unknown> }): void {
  if (!stringLists.has(ctx.zodSchema as z.ZodType)) return;
  const { description } = ctx.jsonSchema;
  for (const key of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[key];
  Object.assign(ctx.jsonSchema, {
    type: 'array',
    items: { type: 'string', minLength: 1 },
    minItems: 1,
    ...(description === undefined ? {} : { description }),
  });
}

/** A file or directory path, resolved later through the server's AllowedPaths. */
export function pathArg(description: string) {
  return z
    .string()
    .min(1, 'must not be empty')
    .describe(`${description} Relative paths resolve against the first allowed directory.`);
}

type ParsedArguments<T> = { ok: true; value: T } | { ok: false; message: string };

/**
 * Parses a client's arguments against a tool's input schema. An explicit `null` means "absent" (LLM
 * clients send nulls for optional arguments); a failure names the argument and what was expected.
 */
export function parseArguments<S extends z.ZodType>(schema: S, raw: unknown): ParsedArguments<z.output<S>> {
  const unknown = unknownArgument(schema, raw);
  if (unknown !== undefined) return { ok: false, message: unknown };
  const input = withoutNulls(raw ?? {});
  const parsed = schema.safeParse(input, { reportInput: true });
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, message: parsed.error.issues.map(describeIssue).join('; ') };
}

/** Names the first argument the schema does not know, and the closest one it does. */
function unknownArgument(schema: z.ZodType, raw: unknown): string | undefined {
  if (!(schema instanceof z.ZodObject) || typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return undefined;
  }
  const known = Object.keys(schema.shape);
  const given = Object.keys(raw).find((key) => !known.includes(key));
  if (given === undefined) return undefined;
  const closest = closestName(given, known);
  if (closest === undefined) return `Invalid argument '${given}': unknown argument; this tool takes none`;
  const all = known.map((name) => `'${name}'`).join(', ');
  return `Invalid argument '${given}': unknown argument; did you mean '${closest}'? (this tool takes ${all})`;
}

/** The known name nearest to `given` by edit distance. */
function closestName(given: string, known: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(given.toLowerCase(), name.toLowerCase());
    if (best === undefined || distance < best.distance) best = { name, distance };
  }
  return best?.name;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

function withoutNulls(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  return Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== null));
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const name = issue.path.length > 0 ? issue.path.map(String).join('.') : 'arguments';
  return `Invalid argument '${name}': ${problemOf(issue)}`;
}

function problemOf(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined
        ? `is required (${issue.expected})`
        : `expected ${issue.expected}, got ${kindOf(issue.input)}`;
    case 'invalid_union':
      return `expected ${issue.errors
        .map((branch) => branch[0])
        .filter((first): first is z.core.$ZodIssue => first !== undefined)
        .map((first) => (first.code === 'invalid_type' ? first.expected : first.message))
        .join(' or ')}, got ${kindOf(issue.input)}`;
    case 'invalid_value':
      return `expected one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}, got ${JSON.stringify(issue.input)}`;
    case 'too_small':
      return issue.origin === 'number' || issue.origin === 'int'
        ? `must be at least ${issue.minimum}`
        : issue.message;
    case 'too_big':
      return issue.origin === 'number' || issue.origin === 'int'
        ? `must be at most ${issue.maximum}`
        : issue.message;
    case 'unrecognized_keys':
      return `unknown argument(s) ${issue.keys.join(', ')}`;
    default:
      return issue.message;
  }
}

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  if (typeof value === 'number' && Number.isInteger(value)) return `integer ${value}`;
  return typeof value;
}
