import { describe, expect, it } from 'vitest';
import { FindingSink } from '../finding.js';
import { projectDocMaxBytes } from './codexRules.js';
import { checkPackageManagerContradictions, packageManagerOf } from './contradictionRules.js';
import { globList, MAX_GLOBS, unmatchedGlobs } from './globMatch.js';
import { parseJsonc } from './jsoncDocument.js';

describe('packageManagerOf', () => {
  it('reads the one package manager a file runs the project with, from code only', () => {
    expect(packageManagerOf('Use pnpm.\n\n```sh\npnpm install\npnpm run build\n```\n')).toMatchObject({
      manager: 'pnpm',
      command: 'pnpm install',
      line: 4,
    });
    expect(packageManagerOf('Run `yarn test` first.')).toMatchObject({ manager: 'yarn', line: 1 });
  });

  it('takes no side for a file that names several, prose, npx, dlx or global installs', () => {
    expect(packageManagerOf('Run `npm install` or `yarn add x`.')).toBeUndefined();
    expect(packageManagerOf('We use npm test and pnpm test in prose.')).toBeUndefined();
    expect(
      packageManagerOf('`npx vitest`, `pnpm dlx x`, `npm install -g pnpm`, `npm i --global y`'),
    ).toBeUndefined();
  });

  // Each of these took the fence and inline-span regexes minutes (quadratic backtracking on a long backtick run).
  it('reads a hostile file of long backtick runs in one pass', () => {
    // Not a fence (a backtick fence's info has no backtick): an inline span, then the real block.
    expect(
      packageManagerOf(`${'`'.repeat(500_000)}x\`\`\`\n\n\`\`\`sh\npnpm install\n\`\`\`\n`),
    ).toMatchObject({
      manager: 'pnpm',
      line: 4,
    });
    expect(packageManagerOf(`Run \`pnpm test\`. ${'`'.repeat(300_000)}`)).toMatchObject({
      manager: 'pnpm',
      line: 1,
    });
    expect(packageManagerOf(`~~~\n${'`'.repeat(300_000)}\n~~~\n\`yarn test\``)).toMatchObject({
      manager: 'yarn',
      line: 4,
    });
  });

  it('reads fences as CommonMark does: tildes or backticks, closed by at least as many, CRLF lines', () => {
    expect(packageManagerOf('````sh\r\n```\r\nnpm test\r\n````\r\nthen `npm run build`')).toMatchObject({
      manager: 'npm',
      line: 3,
    });
    // A fence never closed (a backtick line does not close a tilde fence) runs to the end of the file.
    expect(packageManagerOf('~~~\nyarn add x\n```\n')).toMatchObject({ manager: 'yarn', line: 2 });
  });
});

describe('checkPackageManagerContradictions', () => {
  it('reports each file that disagrees with the first that takes a side, at its command', () => {
    const sink = new FindingSink();
    checkPackageManagerContradictions(
      [
        { file: 'AGENTS.md', text: 'Intro.\n' },
        { file: 'CLAUDE.md', text: '# X\n\n- `pnpm test`\n' },
        { file: 'GEMINI.md', text: '`pnpm lint`\n' },
        { file: '.github/copilot-instructions.md', text: '# X\n\n\n`npm run build`\n' },
      ],
      sink,
    );
    expect(sink.findings).toMatchObject([
      {
        rule: 'contradiction/package-manager',
        file: '.github/copilot-instructions.md',
        line: 4,
        message: expect.stringContaining('CLAUDE.md tells them `pnpm test`'),
      },
    ]);
  });
});

describe('unmatchedGlobs', () => {
  const tree = {
    files: new Set(['src/app.tsx', 'docs/a.md', 'packages/web/x.vue']),
    directories: new Set(['src', 'docs', 'packages', 'packages/web']),
    truncated: false,
    skippedNames: new Set(['node_modules', 'dist']),
  };

  it('reads patterns generously and reports only those no file matches', () => {
    expect(
      unmatchedGlobs(['*.tsx', 'src', './docs/**/*.md', '/src/*.tsx', 'dist/**', '**/*.py', 'lib/**'], tree),
    ).toEqual(['**/*.py', 'lib/**']);
    expect(unmatchedGlobs(['*.vue'], tree, 'packages/web')).toEqual([]);
    expect(unmatchedGlobs(['**/*.py'], { ...tree, truncated: true })).toBeUndefined();
  });

  // picomatch's regexes took minutes on these (backtracking over the `*` runs and alternations of a hostile glob).
  it('matches hostile patterns in bounded time: its own matcher for `*` and `?`, else uncertain', () => {
    const name = 'a'.repeat(250);
    const hostile = {
      ...tree,
      files: new Set([...tree.files, name, `src/${name}b.ts`]),
    };
    expect(unmatchedGlobs(['*a*a*a*a*a*a*c', `src/*a*a*a*a*a*a*a?b.ts`, '**/a*a*a*a*a*/x'], hostile)).toEqual(
      ['*a*a*a*a*a*a*c', '**/a*a*a*a*a*/x'],
    );
    // Braces and extglobs picomatch cannot bound are never reported.
    expect(unmatchedGlobs([`${'{a,a}'.repeat(30)}c`, `+(a|aa)+(a|aa)+(a|aa)c`], hostile)).toEqual([]);
    // Past MAX_GLOBS patterns in one file, the rest is not checked.
    const many = Array.from({ length: MAX_GLOBS + 10 }, (_, index) => `none${index}/**`);
    expect(unmatchedGlobs(many, hostile)).toEqual(many.slice(0, MAX_GLOBS));
  });

  it('reads `*`, `?` and `**` as picomatch does for the patterns agents write', () => {
    const files = ['src/app.tsx', 'src/a/b/c.test.ts', '.github/workflows/ci.yml', 'README.md'];
    const walked = {
      ...tree,
      files: new Set(files),
      directories: new Set(['src', 'src/a', 'src/a/b', '.github']),
    };
    const globs = [
      'src/**/*.test.ts',
      '**/?.test.ts',
      'src/*/b',
      '.github/**',
      '*.md',
      'src/a',
      'src/**/x',
      '??.md',
    ];
    expect(unmatchedGlobs(globs, walked)).toEqual(['src/**/x', '??.md']);
  });

  it('splits comma lists outside braces and strips quotes and brackets', () => {
    expect(globList('src/**/*.{ts,tsx}, "docs/*.md"')).toEqual(['src/**/*.{ts,tsx}', 'docs/*.md']);
    expect(globList('["a/**", "b/*"]')).toEqual(['a/**', 'b/*']);
    expect(globList(['x', 3, ' '])).toEqual(['x']);
  });
});

describe('parseJsonc', () => {
  it('gives the line of a syntax error and of a key, with comments allowed', () => {
    const broken = parseJsonc('{\n  // c\n  "a": 1,\n}\n', { trailingCommas: false });
    expect(broken.error).toMatchObject({ line: 4 });
    const fine = parseJsonc('{\n  // c\n  "servers": {\n    "x": { "command": "npx" }\n  },\n}\n', {
      trailingCommas: true,
    });
    expect(fine.error).toBeUndefined();
    expect(fine.lineOf(['servers', 'x', 'command'])).toBe(4);
    expect(fine.value).toEqual({ servers: { x: { command: 'npx' } } });
  });

  it('keeps a key named __proto__ as a key (a server so named is seen, not turned into a prototype)', () => {
    const { value } = parseJsonc('{ "servers": { "__proto__": { "command": "npx" } } }', {
      trailingCommas: true,
    });
    const servers = (value as { servers: object }).servers;
    expect(Object.entries(servers)).toEqual([['__proto__', { command: 'npx' }]]);
  });

  it('reports a hostile file nested a million levels deep as a syntax error instead of overflowing the stack', () => {
    expect(parseJsonc('['.repeat(1_000_000), { trailingCommas: true }).error).toEqual({
      message: 'nested too deeply',
      line: 1,
    });
    expect(
      parseJsonc(`${'['.repeat(200_000)}${']'.repeat(200_000)}`, { trailingCommas: true }).error,
    ).toEqual({
      message: 'nested too deeply',
      line: 1,
    });
  });
});

describe('projectDocMaxBytes', () => {
  it('reads the top-level project_doc_max_bytes of .codex/config.toml, else 32 KiB', () => {
    expect(projectDocMaxBytes('model = "o3"\nproject_doc_max_bytes = 65_536\n')).toBe(65_536);
    expect(projectDocMaxBytes('[profiles.x]\nproject_doc_max_bytes = 1\n')).toBe(32 * 1024);
    expect(projectDocMaxBytes(undefined)).toBe(32 * 1024);
  });
});
