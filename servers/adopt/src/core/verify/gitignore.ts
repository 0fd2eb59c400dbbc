// Enough of gitignore's matching to answer "is this path ignored?": anchoring, `*`, `**`, `?`, classes,
// directory-only patterns, negation, and "a file under an ignored directory stays ignored".

interface IgnoreRule {
  negated: boolean;
  directoryOnly: boolean;
  pattern: RegExp;
}

export function parseGitignore(text: string, base = ''): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const rawLine of text.split(/\r?\n/)) {
    let line = rawLine.replace(/(?<!\\)\s+$/, '');
    if (line === '' || line.startsWith('#')) continue;
    const negated = line.startsWith('!');
    if (negated) line = line.slice(1);
    const directoryOnly = line.endsWith('/');
    if (directoryOnly) line = line.slice(0, -1);
    const anchored = line.includes('/');
    line = line.replace(/^\//, '');
    const prefix = base === '' ? '' : `${escapeRegExp(base)}/`;
    const body = globToRegExp(line);
    rules.push({
      negated,
      directoryOnly,
      pattern: new RegExp(`^${prefix}${anchored ? '' : '(?:.*/)?'}${body}$`),
    });
  }
  return rules;
}

/** Whether `path` (a file, repository-relative) is ignored by `rules` (in file order). */
export function isIgnored(rules: readonly IgnoreRule[], path: string): boolean {
  const segments = path.split('/');
  for (let depth = 1; depth < segments.length; depth++) {
    if (decide(rules, segments.slice(0, depth).join('/'), true)) return true;
  }
  return decide(rules, path, false);
}

function decide(rules: readonly IgnoreRule[], path: string, isDirectory: boolean): boolean {
  let ignored = false;
  for (const rule of rules) {
    if (rule.directoryOnly && !isDirectory) continue;
    if (rule.pattern.test(path)) ignored = !rule.negated;
  }
  return ignored;
}

function globToRegExp(glob: string): string {
  let out = '';
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index] as string;
    if (char === '*' && glob[index + 1] === '*') {
      const slashAfter = glob[index + 2] === '/';
      out += slashAfter ? '(?:.*/)?' : '.*';
      index += slashAfter ? 2 : 1;
    } else if (char === '*') out += '[^/]*';
    else if (char === '?') out += '[^/]';
    else if (char === '[') {
      const end = glob.indexOf(']', index + 1);
      if (end === -1) out += '\\[';
      else {
        out += `[${glob.slice(index + 1, end).replace(/^!/, '^')}]`;
        index = end;
      }
    } else if (char === '\\' && index + 1 < glob.length) {
      out += escapeRegExp(glob[index + 1] as string);
      index++;
    } else out += escapeRegExp(char);
  }
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
