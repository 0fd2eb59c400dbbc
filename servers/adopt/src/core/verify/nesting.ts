// The yaml parser recurses once per nested flow collection (`[` or `{`), and near a thousand levels V8 aborts
// the whole process (a fatal out-of-memory while compiling a regular expression at the stack's end), not an
// exception anyone can catch. Real settings, .mcp.json files and front matter nest a few levels.
export const MAX_NESTING = 100;

/**
 * Whether `text` opens more than MAX_NESTING brackets without closing them. Brackets inside strings count
 * too: that can only stop a text early, never let a deep one through.
 */
export function nestsTooDeep(text: string): boolean {
  let depth = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x5b || code === 0x7b) {
      if (++depth > MAX_NESTING) return true;
    } else if ((code === 0x5d || code === 0x7d) && depth > 0) depth--;
  }
  return false;
}
