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

export function requiredInt(description: string) {
  return z.number().int().describe(description);
}

export function optionalInt(description: string) {
  return z.number().int().optional().describe(description);
}

/** An integer in [min, max] that falls back to `fallback` when absent. */
export function optionalBoundedInt(min: number, max: number, fallback: number, description: string) {
  return z.number().int().min(min).max(max).default(fallback).describe(description);
}

export function optionalBoolean(fallback: boolean, description: string) {
  return z.boolean().default(fallback).describe(description);
}

/** One or more strings, given as an array or as one comma-separated string (models send both). */
export function stringList(description: string) {
  return z
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
}

/** A file or directory path, resolved later through the server's AllowedPaths. */
export function pathArg(description: string) {
  return z
    .string()
    .min(1, 'must not be empty')
    .describe(`${description} Relative paths resolve against the first allowed directory.`);
}

export type ParsedArguments<T> = { ok: true; value: T } | { ok: false; message: string };

/**
 * Parses a client's arguments against a tool's input schema. An explicit `null` means "absent" (LLM
 * clients send nulls for optional arguments); a failure names the argument and what was expected.
 */
export function parseArguments<S extends z.ZodType>(schema: S, raw: unknown): ParsedArguments<z.output<S>> {
  const input = withoutNulls(raw ?? {});
  const parsed = schema.safeParse(input, { reportInput: true });
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, message: parsed.error.issues.map(describeIssue).join('; ') };
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
