// change_impact's changed exported declarations for Java, against the JDK: the sources of java.util that
// compile outside java.base (moved to package copied.util, from the JDK's src.zip, openjdk-17-source) are
// committed to a temporary repository, edited at test time (a statement at the top of a method or
// constructor body, a comment, a public method or an overload added) and committed; javac compiles base and
// head and `javap -protected -c -constants` lists every public and protected class, member and constant,
// each method with its bytecode (constant-pool indexes left out). For every edited file, ours equal the
// members javap shows added, removed or changed, in both directions. Not seen by this oracle, so not edited:
// a constant's value (javac inlines it into the methods that use it, ours reports the constant), field
// initialisers (their code lands in constructors and `static {}`), annotations (javap -c omits them).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  changedExports,
  disagreements,
  historyRepository,
  kinds,
  oracleChanges,
  seeded,
} from './exportsDifferential.js';

const SOURCES = '/usr/lib/jvm/java-17-openjdk-amd64/lib/src.zip';
const haveJdk = existsSync(SOURCES) && spawnSync('javac', ['-version']).status === 0;
if (!haveJdk && process.env.CI) throw new Error('CI must install default-jdk-headless and openjdk-17-source');

/** The java.util sources that compile as another package (found by compiling all and dropping failures). */
const FILES =
  `ArrayPrefixHelpers ArraysParallelSortHelpers ComparableTimSort Comparators ConcurrentModificationException
  Dictionary DoubleSummaryStatistics DualPivotQuicksort DuplicateFormatFlagsException EmptyStackException Enumeration
  EventListener EventListenerProxy EventObject FormatFlagsConversionMismatchException Formattable FormattableFlags
  FormatterClosedException IllegalFormatArgumentIndexException IllegalFormatCodePointException
  IllegalFormatConversionException IllegalFormatException IllegalFormatFlagsException IllegalFormatPrecisionException
  IllegalFormatWidthException IllformedLocaleException InputMismatchException IntSummaryStatistics
  InvalidPropertiesFormatException Iterator ListIterator LocaleISOData LongSummaryStatistics
  MissingFormatArgumentException MissingFormatWidthException MissingResourceException NavigableMap
  NoSuchElementException Observable Observer RandomAccess ServiceConfigurationError SortedMap StringTokenizer TimSort
  TimerTask TooManyListenersException UnknownFormatConversionException UnknownFormatFlagsException`.split(
    /\s+/,
  );

/** A method or constructor header on one line, at the indentation of a top-level type's members. */
const HEADER =
  /^ {4}(?!return|new|else|if|for|while|switch|try|catch)[\w<>[\], ?.@]+\([^)]*\)(\s*throws [\w., ]+)?\s*\{\s*$/;

function edit(text: string, random: (n: number) => number, serial: number): string {
  const lines = text.split('\n');
  // Worked out again for each edit: an earlier one moved the lines.
  const headers = () =>
    lines.flatMap((line, index) => {
      const next = lines.slice(index + 1).find((candidate) => candidate.trim() !== '') ?? '';
      return HEADER.test(line) && !/^\s*(this|super)\(/.test(next) ? [index] : [];
    });
  const publicNames = [
    ...text.matchAll(/^ {4}public (?:static |final |synchronized |default )*[\w<>[\], ?]+ (\w+)\(/gm),
  ].map((match) => match[1]!);
  const close = () => lines.findLastIndex((line) => line.startsWith('}'));
  let added = 0;
  const edits: Array<() => void> = [
    () => {
      const found = headers();
      const at = found[random(found.length)];
      if (at !== undefined) lines.splice(at + 1, 0, '        java.util.Objects.hashCode(null);');
    },
    () => lines.splice(1 + random(lines.length - 1), 0, '// edited at test time'),
    () =>
      lines.splice(
        close(),
        0,
        `    public static int addedAtTestTime${serial}x${++added}() { return ${serial}; }`,
      ),
    () => {
      const name = publicNames[random(publicNames.length)];
      if (name !== undefined)
        lines.splice(
          close(),
          0,
          `    public static void ${name}(long a, long b, long c, long d, byte e${serial}${Array.from({ length: ++added }, (_, n) => `, int f${n}`).join('')}) {}`,
        );
    },
  ];
  for (let count = 1 + random(3); count > 0; count--) edits[random(edits.length)]!();
  return lines.join('\n');
}

/** javap's classes and members: `{file: {Class.member: text}}`, nested classes as `Outer.Inner`. */
function javap(classes: string, sourceFolder: string): Record<string, Record<string, string>> {
  const files = readdirSync(classes, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.class'))
    .map((file) => path.join(classes, file));
  const output = execFileSync('javap', ['-protected', '-c', '-constants', ...files], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const bySource: Record<string, Record<string, string>> = {};
  const shown = new Set<string>();
  const pending: Array<{ source: string; className: string; members: Map<string, string> }> = [];
  for (const block of output.split(/^Compiled from "/m).slice(1)) {
    const [sourceLine, header, ...rest] = block.split('\n');
    const source = sourceLine!.replace(/".*/, '');
    const fullName = /(?:class|interface|enum)\s+([\w.$]+)/.exec(header!)?.[1];
    if (fullName === undefined || !/^(public|protected)\b/.test(header!)) continue;
    const className = fullName.replace(/^copied\.util\./, '').replaceAll('$', '.');
    // Anonymous and local classes are not API.
    if (className.split('.').some((part) => /^\d/.test(part))) continue;
    shown.add(className);
    const members = new Map<string, string>([[className, header!.trim()]]);
    let current: string | undefined;
    for (const line of rest) {
      if (/^ {2}\S/.test(line)) {
        const signature = line.trim();
        const beforeParen = signature.includes('(') ? signature.slice(0, signature.indexOf('(')) : undefined;
        const last = (beforeParen ?? signature.replace(/( = .*)?;$/, '')).split(/\s+/).at(-1)!;
        const simple = last.replace(/^copied\.util\./, '').replaceAll('$', '.');
        const member = simple === className ? className.split('.').at(-1)! : simple;
        current = `${className}.${member}`;
        if (signature.startsWith('static {}')) current = undefined;
        else members.set(current, `${members.get(current) ?? ''}\n${signature}`);
      } else if (/^ {4}/.test(line) && current !== undefined) {
        members.set(
          current,
          `${members.get(current)}\n${line.replace(/#\d+(:\d+)?/g, '#').replace(/\s+/g, ' ')}`,
        );
      }
    }
    pending.push({ source, className, members });
  }
  for (const { source, className, members } of pending) {
    // A nested class is API when the classes around it are.
    const outers = className.split('.').slice(0, -1);
    if (outers.some((_, index) => !shown.has(outers.slice(0, index + 1).join('.')))) continue;
    const file = path.join(sourceFolder, source);
    bySource[file] = { ...bySource[file], ...Object.fromEntries(members) };
  }
  return bySource;
}

describe.skipIf(!haveJdk)('Java: changed exports equal javap’s', () => {
  const temporary: string[] = [];
  afterAll(() => {
    for (const folder of temporary) rmSync(folder, { recursive: true, force: true });
  });

  it('java.util sources edited at test time, both directions', { timeout: 600_000 }, async () => {
    const unpacked = mkdtempSync(path.join(os.tmpdir(), 'javaexports-'));
    temporary.push(unpacked);
    execFileSync('jar', ['xf', SOURCES, ...FILES.map((name) => `java.base/java/util/${name}.java`)], {
      cwd: unpacked,
    });
    const base = new Map<string, string>();
    for (const name of FILES) {
      const text = readFileSync(path.join(unpacked, 'java.base/java/util', `${name}.java`), 'utf8');
      base.set(
        `src/copied/util/${name}.java`,
        text.replace(
          /^package java\.util;/m,
          'package copied.util;\nimport java.util.*;\nimport java.util.function.*;\nimport java.util.stream.*;',
        ),
      );
    }
    const random = seeded(24);
    const head = new Map<string, string>();
    for (const [file, text] of base) {
      const edited = edit(text, random, head.size + 1);
      if (edited !== text) head.set(file, edited);
    }
    const root = historyRepository(base, head);
    temporary.push(root);
    const compile = (branch: string) => {
      execFileSync('git', ['checkout', '-q', branch], { cwd: root });
      const classes = path.join(unpacked, `classes-${branch}`);
      execFileSync('javac', ['-proc:none', '-nowarn', '-d', classes, ...base.keys()], {
        cwd: root,
        stdio: 'pipe',
      });
      return javap(classes, 'src/copied/util');
    };
    const before = compile('main');
    const after = compile('edited');
    const files = [...head.keys()];
    expect(files.length).toBeGreaterThan(40);

    const forward = await changedExports(root, 'edited', 'main');
    const backward = await changedExports(root, 'reverted', 'edited');
    const changes = (from: (typeof before)[string] | undefined, to: (typeof before)[string] | undefined) =>
      oracleChanges(from ?? {}, to ?? {});
    expect(disagreements(files, forward, (file) => changes(before[file], after[file]))).toEqual([]);
    expect(disagreements(files, backward, (file) => changes(after[file], before[file]))).toEqual([]);
    const counts = kinds(forward);
    expect(counts.added).toBeGreaterThan(10);
    expect(counts.modified).toBeGreaterThan(10);
    expect(kinds(backward).removed).toBeGreaterThan(10);
    expect(files.filter((file) => changes(before[file], after[file]).length === 0).length).toBeGreaterThan(3);
  });
});
