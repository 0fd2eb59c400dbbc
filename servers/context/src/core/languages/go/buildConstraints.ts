// Go build constraints (`//go:build` lines and `_GOOS`/`_GOARCH` file-name suffixes), read far enough to tell
// whether two files can be compiled together: `watch.go` (!js) never sees `watch_wasm.go` (js), so a name
// both declare links each user to the one it can be built with.

/** A parsed constraint: a boolean expression over build tags. */
export type Constraint =
  | { tag: string }
  | { not: Constraint }
  | { and: [Constraint, Constraint] }
  | { or: [Constraint, Constraint] };

const KNOWN_OS = [
  'aix',
  'android',
  'darwin',
  'dragonfly',
  'freebsd',
  'hurd',
  'illumos',
  'ios',
  'js',
  'linux',
  'nacl',
  'netbsd',
  'openbsd',
  'plan9',
  'solaris',
  'wasip1',
  'windows',
  'zos',
];
const UNIX_OS = new Set([
  'aix',
  'android',
  'darwin',
  'dragonfly',
  'freebsd',
  'hurd',
  'illumos',
  'ios',
  'linux',
  'netbsd',
  'openbsd',
  'solaris',
]);
const KNOWN_ARCH = [
  '386',
  'amd64',
  'arm',
  'arm64',
  'loong64',
  'mips',
  'mipsle',
  'mips64',
  'mips64le',
  'ppc64',
  'ppc64le',
  'riscv64',
  's390x',
  'wasm',
];
/** GOOS values that also satisfy another GOOS tag. */
const IMPLIED_OS: Record<string, string> = { android: 'linux', ios: 'darwin', illumos: 'solaris' };

/** The constraint of a file: its `//go:build` line (before the package clause) and its name's suffixes. */
export function fileConstraint(fileName: string, source: string): Constraint | undefined {
  const parts: Constraint[] = [];
  const header = headerOf(source);
  const line = /^\/\/go:build[ \t]+(.+)$/m.exec(header);
  if (line?.[1] !== undefined) {
    const parsed = parseConstraint(line[1]);
    if (parsed !== undefined) parts.push(parsed);
  } else {
    // The older form: `// +build a,b c` is (a && b) || c; several lines are and-ed.
    for (const plusBuild of header.matchAll(/^\/\/ \+build[ \t]+(.+)$/gm)) {
      const text = (plusBuild[1] ?? '')
        .trim()
        .split(/\s+/)
        .map((term) => `(${term.split(',').join(' && ')})`);
      const parsed = parseConstraint(text.join(' || '));
      if (parsed !== undefined) parts.push(parsed);
    }
  }
  const base = fileName.slice(fileName.lastIndexOf('/') + 1).replace(/(_test)?\.go$/, '');
  const elements = base.split('_');
  const last = elements.at(-1) ?? '';
  const beforeLast = elements.at(-2) ?? '';
  if (elements.length >= 3 && KNOWN_OS.includes(beforeLast) && KNOWN_ARCH.includes(last)) {
    parts.push({ tag: beforeLast }, { tag: last });
  } else if (elements.length >= 2 && (KNOWN_OS.includes(last) || KNOWN_ARCH.includes(last))) {
    parts.push({ tag: last });
  }
  return parts.reduce<Constraint | undefined>(
    (all, part) => (all === undefined ? part : { and: [all, part] }),
    undefined,
  );
}

/** The text before the package clause, where build constraints must be. */
function headerOf(source: string): string {
  const clause = /^package[ \t]/m.exec(source);
  return clause === null ? source.slice(0, 4096) : source.slice(0, clause.index);
}

export function parseConstraint(text: string): Constraint | undefined {
  const tokens = text.match(/!|&&|\|\||\(|\)|[A-Za-z0-9_.]+/g) ?? [];
  let position = 0;
  const or = (): Constraint | undefined => {
    let left = and();
    while (left !== undefined && tokens[position] === '||') {
      position++;
      const right = and();
      left = right === undefined ? undefined : { or: [left, right] };
    }
    return left;
  };
  const and = (): Constraint | undefined => {
    let left = unary();
    while (left !== undefined && tokens[position] === '&&') {
      position++;
      const right = unary();
      left = right === undefined ? undefined : { and: [left, right] };
    }
    return left;
  };
  const unary = (): Constraint | undefined => {
    const token = tokens[position++];
    if (token === '!') {
      const operand = unary();
      return operand === undefined ? undefined : { not: operand };
    }
    if (token === '(') {
      const inner = or();
      return tokens[position++] === ')' ? inner : undefined;
    }
    return token === undefined || !/^[A-Za-z0-9_.]+$/.test(token) ? undefined : { tag: token };
  };
  const parsed = or();
  return position === tokens.length ? parsed : undefined;
}

function tagsOf(constraint: Constraint, into: Set<string>): Set<string> {
  if ('tag' in constraint) into.add(constraint.tag);
  else if ('not' in constraint) tagsOf(constraint.not, into);
  else for (const part of 'and' in constraint ? constraint.and : constraint.or) tagsOf(part, into);
  return into;
}

function holds(constraint: Constraint, tags: ReadonlySet<string>): boolean {
  if ('tag' in constraint) return tags.has(constraint.tag);
  if ('not' in constraint) return !holds(constraint.not, tags);
  if ('and' in constraint) return holds(constraint.and[0], tags) && holds(constraint.and[1], tags);
  return holds(constraint.or[0], tags) || holds(constraint.or[1], tags);
}

const RELEASE = /^go1\.(\d+)$/;
/** Beyond this many free tags, two files are taken as compatible rather than enumerated. */
const MAX_FREE_TAGS = 12;

/**
 * True when some build configuration satisfies both constraints: one GOOS (with the tags it implies), one
 * GOARCH, release tags up to one Go version, any set of other tags.
 */
export function compatible(a: Constraint | undefined, b: Constraint | undefined): boolean {
  if (a === undefined || b === undefined) return true;
  const both: Constraint = { and: [a, b] };
  const mentioned = tagsOf(both, new Set());
  const systems = [...KNOWN_OS.filter((os) => mentioned.has(os)), 'other-unix', 'other'];
  const arches = [...KNOWN_ARCH.filter((arch) => mentioned.has(arch)), 'other'];
  const releases = [...mentioned]
    .map((tag) => RELEASE.exec(tag)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number);
  const versions = [...new Set([...releases, ...releases.map((n) => n - 1), 1000])];
  const free = [...mentioned].filter(
    (tag) => !KNOWN_OS.includes(tag) && !KNOWN_ARCH.includes(tag) && tag !== 'unix' && !RELEASE.test(tag),
  );
  if (free.length > MAX_FREE_TAGS) return true;
  for (const os of systems)
    for (const arch of arches)
      for (const version of versions)
        for (let mask = 0; mask < 1 << free.length; mask++) {
          const tags = new Set<string>([os, arch]);
          if (IMPLIED_OS[os] !== undefined) tags.add(IMPLIED_OS[os]);
          if (UNIX_OS.has(os) || os === 'other-unix') tags.add('unix');
          for (const n of releases) if (n <= version) tags.add(`go1.${n}`);
          free.forEach((tag, index) => {
            if (mask & (1 << index)) tags.add(tag);
          });
          if (holds(both, tags)) return true;
        }
  return false;
}
