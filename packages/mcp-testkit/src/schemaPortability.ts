// What strict MCP clients refuse in a tool's JSON Schema (the Inspector's --strict, clients that coerce
// arguments by `type`): a field without exactly one `type`, e.g. `["string", "null"]` or a bare `anyOf`.

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
