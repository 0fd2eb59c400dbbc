/** A Groovy single-quoted string literal (no `$` interpolation) holding `text`. */
export function groovyString(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
}
