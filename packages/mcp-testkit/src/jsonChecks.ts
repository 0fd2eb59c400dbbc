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
