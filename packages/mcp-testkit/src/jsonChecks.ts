// Structural checks of raw JSON that the SDK's schemas let through.

/** JSON paths (`result.serverInfo.title`) of every explicit `null` inside `value`. */
export function nullPaths(value: unknown, at = '$'): string[] {
  if (value === null) return [at];
  if (Array.isArray(value)) return value.flatMap((item, index) => nullPaths(item, `${at}[${index}]`));
  if (typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>).flatMap(([key, item]) =>
      nullPaths(item, `${at}.${key}`),
    );
  }
  return [];
}

/** Every object key inside `value` that contains an underscore (a snake_case twin of a camelCase key). */
export function snakeCaseKeys(value: unknown, at = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => snakeCaseKeys(item, `${at}[${index}]`));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, item]) => [
    ...(key.includes('_') && !key.startsWith('_') ? [`${at}.${key}`] : []),
    ...snakeCaseKeys(item, `${at}.${key}`),
  ]);
}

/** What is wrong with a stdio server's stdout, which must hold JSON-RPC 2.0 messages, one per line, and nothing else. */
export function stdoutProblems(stdout: string): string[] {
  if (stdout === '') return ['stdout is empty'];
  const problems: string[] = [];
  if (!stdout.startsWith('{'))
    problems.push(`stdout starts with ${JSON.stringify(stdout.slice(0, 40))}, not '{'`);
  if (!stdout.endsWith('\n')) problems.push('stdout does not end with a newline');
  for (const line of stdout.split('\n').filter((item) => item !== '')) {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      problems.push(`not JSON: ${line.slice(0, 80)}`);
      continue;
    }
    if ((message as { jsonrpc?: unknown } | null)?.jsonrpc !== '2.0')
      problems.push(`not JSON-RPC 2.0: ${line.slice(0, 80)}`);
  }
  return problems;
}
