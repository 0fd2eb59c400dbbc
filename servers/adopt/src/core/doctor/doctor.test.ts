import { readdirSync, readFileSync } from 'node:fs';
import Ajv from 'ajv';
import ajvFormats from 'ajv-formats';
import { afterAll, describe, expect, it } from 'vitest';
import { conventionalRepo } from '../../testing/conventionalRepo.js';
import { type FixtureFiles, removeFixtureRepo, writeFixtureRepo } from '../../testing/fixtureRepo.js';
import { RULES, type RuleId } from '../verify/ruleCatalog.js';
import { type DoctorOptions, doctor } from './doctor.js';
import { covers } from './permissionShadows.js';

const created: string[] = [];
afterAll(async () => {
  await Promise.all(created.map(removeFixtureRepo));
});

/** The environment the doctor sees: this PATH (node and npx on it) and the variable the baseline needs. */
const ENV = { PATH: process.env.PATH, API_TOKEN: 'not-a-secret' };

async function doctorWith(overlay: FixtureFiles, options: DoctorOptions = {}) {
  const root = await writeFixtureRepo({ ...conventionalRepo(), ...overlay });
  created.push(root);
  return doctor(root, 'repo', { env: ENV, ...options });
}

const settings = (value: object) => ({ '.claude/settings.json': JSON.stringify(value, null, 2) });
const local = (value: object) => ({ '.claude/settings.local.json': JSON.stringify(value, null, 2) });
const mcp = (servers: object) => ({ '.mcp.json': JSON.stringify({ mcpServers: servers }, null, 2) });
const hooks = (event: string, matcher: string) =>
  settings({ hooks: { [event]: [{ matcher, hooks: [{ type: 'command', command: 'true' }] }] } });

/** Every doctor rule with a repository that passes it and one that fails it once. */
const corpus: Array<{ rule: RuleId; pass: FixtureFiles; fail: FixtureFiles }> = [
  {
    rule: 'doctor/permission-shadowed',
    pass: settings({ permissions: { allow: ['Bash(npm test)'], deny: ['Bash(rm *)'] } }),
    fail: settings({ permissions: { allow: ['Bash(npm run lint)'], ask: ['Bash(npm *)'] } }),
  },
  {
    rule: 'doctor/permission-redundant',
    pass: settings({ permissions: { allow: ['Bash(npm run lint)', 'Bash(npm test)'] } }),
    fail: settings({ permissions: { allow: ['Bash(npm:*)', 'Bash(npm run lint:*)'] } }),
  },
  { rule: 'doctor/hook-matcher-ignored', pass: hooks('Stop', ''), fail: hooks('Stop', 'Bash') },
  {
    rule: 'doctor/hook-matcher-never',
    pass: hooks('PreToolUse', 'Edit|Write'),
    fail: hooks('PreToolUse', 'Edit|Wirte'),
  },
  {
    rule: 'doctor/mcp-command-not-found',
    pass: mcp({ local: { command: 'node', args: ['--version'] } }),
    fail: mcp({ local: { command: 'no-such-mcp-server-command', args: [] } }),
  },
  {
    rule: 'doctor/mcp-script-missing',
    pass: { ...mcp({ local: { command: 'node', args: ['scripts/server.mjs'] } }), 'scripts/server.mjs': '' },
    fail: mcp({ local: { command: 'node', args: ['scripts/server.mjs'] } }),
  },
  {
    rule: 'doctor/mcp-variable-unset',
    pass: mcp({
      remote: {
        type: 'http',
        url: 'https://example.com/mcp',
        headers: { Authorization: `Bearer \${API_TOKEN}` },
      },
    }),
    fail: mcp({
      remote: {
        type: 'http',
        url: 'https://example.com/mcp',
        headers: { Authorization: `Bearer \${NOT_SET_ANYWHERE}` },
      },
    }),
  },
  {
    rule: 'doctor/mcp-url',
    pass: mcp({ remote: { type: 'sse', url: 'https://example.com/sse' } }),
    fail: mcp({ remote: { type: 'http', url: 'example.com/mcp' } }),
  },
];

describe('doctor', () => {
  it('finds nothing wrong with a repository that follows every convention', async () => {
    const report = await doctorWith({});
    expect(report.findings).toEqual([]);
    expect(report.passed).toBe(true);
    expect(report.sources).toEqual([
      { scope: 'local', file: '.claude/settings.local.json', status: 'absent' },
      { scope: 'shared', file: '.claude/settings.json', status: 'applied' },
    ]);
    expect(report.servers.map((server) => [server.name, server.transport, server.problems])).toEqual([
      ['adopt', 'stdio', []],
      ['remote', 'http', []],
    ]);
  });

  it('has a passing and a failing case for every doctor rule but the live start', () => {
    expect(corpus.map((entry) => entry.rule).sort()).toEqual(
      Object.keys(RULES)
        .filter((rule) => rule.startsWith('doctor/') && rule !== 'doctor/mcp-start-failed')
        .sort(),
    );
  });

  describe.each(corpus)('rule $rule', ({ rule, pass, fail }) => {
    it('stays quiet on the passing case', async () => {
      const report = await doctorWith(pass);
      expect(report.findings.filter((finding) => finding.rule === rule)).toEqual([]);
    });

    it(`reports the failing case once, as ${RULES[rule].severity}, with a line and its documentation`, async () => {
      const report = await doctorWith(fail);
      const found = report.findings.filter((finding) => finding.rule === rule);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ severity: RULES[rule].severity, docs: RULES[rule].docs });
      expect(found[0]?.line).toBeGreaterThan(1);
    });
  });

  it('says which file each effective value comes from, why it wins, and merges arrays across the files', async () => {
    const report = await doctorWith({
      ...settings({ model: 'sonnet', env: { A: '1', B: '2' }, permissions: { allow: ['Read', 'Bash(ls)'] } }),
      ...local({ model: 'opus', env: { B: '3' }, permissions: { allow: ['Bash(ls)', 'Grep'] } }),
    });
    const entry = (key: string) => report.settings.find((setting) => setting.key === key);
    expect(entry('model')).toMatchObject({
      value: 'opus',
      files: ['.claude/settings.local.json'],
      overridden: [{ file: '.claude/settings.json', value: 'sonnet' }],
    });
    expect(entry('model')?.why).toContain(
      'local project settings (.claude/settings.local.json) take precedence',
    );
    expect(entry('env.A')).toMatchObject({ value: '1', files: ['.claude/settings.json'], overridden: [] });
    expect(entry('env.B')).toMatchObject({ value: '3', files: ['.claude/settings.local.json'] });
    expect(entry('permissions.allow')).toMatchObject({
      value: ['Bash(ls)', 'Grep', 'Read'],
      files: ['.claude/settings.local.json', '.claude/settings.json'],
    });
    // The same rule in both files is said once, at the second file.
    expect(report.findings.filter((finding) => finding.rule === 'doctor/permission-redundant')).toHaveLength(
      1,
    );
  });

  it('takes the agent default of a plugin the settings enable from the repository marketplace, below the project files', async () => {
    const marketplace = {
      name: 'house',
      owner: { name: 'Demo' },
      plugins: [{ name: 'review', source: './plugins/review' }],
    };
    const base = {
      '.claude-plugin/marketplace.json': JSON.stringify(marketplace),
      'plugins/review/.claude-plugin/plugin.json': '{ "name": "review" }',
      'plugins/review/settings.json': JSON.stringify({ agent: 'reviewer', model: 'haiku' }),
    };
    const fromPlugin = await doctorWith({
      ...base,
      ...settings({ enabledPlugins: { 'review@house': true } }),
    });
    expect(fromPlugin.sources[2]).toEqual({
      scope: 'plugin',
      file: 'plugins/review/settings.json',
      status: 'applied',
      note: "Only agent applies from a plugin's settings.json; ignored: model.",
    });
    expect(fromPlugin.settings.find((entry) => entry.key === 'agent')).toMatchObject({
      value: 'reviewer',
      why: 'set only in an enabled plugin’s settings.json (plugins/review/settings.json)',
    });
    expect(fromPlugin.settings.find((entry) => entry.key === 'model')).toBeUndefined();
    const overridden = await doctorWith({
      ...base,
      ...settings({ enabledPlugins: { 'review@house': true }, agent: 'writer' }),
    });
    expect(overridden.settings.find((entry) => entry.key === 'agent')).toMatchObject({
      value: 'writer',
      overridden: [{ file: 'plugins/review/settings.json', value: 'reviewer' }],
    });
    const disabled = await doctorWith({
      ...base,
      ...settings({ enabledPlugins: { 'review@house': false } }),
    });
    expect(disabled.sources).toHaveLength(2);
  });

  it('leaves out a file Claude Code skips (a value the schema rejects) and says why', async () => {
    const report = await doctorWith(local({ model: 'opus', cleanupPeriodDays: 'soon' }));
    expect(report.sources[0]).toMatchObject({
      status: 'skipped',
      note: expect.stringContaining('cleanupPeriodDays'),
    });
    expect(report.settings.find((setting) => setting.key === 'model')).toBeUndefined();
    expect(report.findings.map((finding) => finding.rule)).toContain('settings/schema');
  });

  it('says a settings file it may not read is unreadable, never reading through the link', async () => {
    const report = await doctorWith({ '.claude/settings.local.json': { symlink: '/etc/passwd' } });
    expect(report.sources[0]).toMatchObject({ status: 'unreadable' });
    expect(report.findings.map((finding) => finding.rule)).toContain('files/unsafe');
  });

  it('reports the denied allow, the asked allow and the hook checks verify shares (unknown event, missing script)', async () => {
    const report = await doctorWith(
      settings({
        permissions: {
          allow: ['Bash(git push:*)', 'mcp__github__create_issue'],
          deny: ['mcp__github'],
          ask: ['Bash(git:*)'],
        },
        hooks: {
          PreToolUse: [
            { matcher: 'Bash(', hooks: [{ type: 'command', command: './.claude/hooks/missing.sh' }] },
          ],
          preToolUse: [{ hooks: [{ type: 'command', command: 'true' }] }],
        },
      }),
    );
    const messages = report.findings.map((finding) => `${finding.rule}: ${finding.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^doctor\/permission-shadowed: 'Bash\(git push:\*\)' in `allow`.*'Bash\(git:\*\)' in `ask`/,
        ),
        expect.stringMatching(/^doctor\/permission-shadowed: 'mcp__github__create_issue'.*always denied/),
        expect.stringMatching(
          /^doctor\/hook-matcher-never: The PreToolUse matcher 'Bash\(' is not a valid regular expression/,
        ),
        expect.stringMatching(/^settings\/hook-event: Unknown hook event 'preToolUse'/),
        expect.stringMatching(
          /^settings\/hook-script: Hook script '.claude\/hooks\/missing.sh' does not exist/,
        ),
      ]),
    );
  });

  it('marks servers that settings disable, and checks a command script in the repository', async () => {
    const report = await doctorWith({
      ...mcp({ off: { command: 'node', args: ['--version'] }, tool: { command: './bin/server' } }),
      ...settings({ disabledMcpjsonServers: ['off'] }),
      'bin/server': '#!/bin/sh\n',
    });
    expect(report.servers.find((server) => server.name === 'off')?.disabled).toBe(true);
    expect(report.findings.find((finding) => finding.rule === 'doctor/mcp-script-missing')?.message).toBe(
      "Server 'tool': command 'bin/server' is not executable.",
    );
  });

  it('never shows a value an expansion took from the environment', async () => {
    const report = await doctorWith(
      mcp({
        s: { command: 'node', args: [`\${SECRET_ARG}`], env: { TOKEN: `\${SECRET_ARG}` } },
        // Each message quotes what is wrong: as written, never as expanded.
        onPath: { command: `\${SECRET_ARG}` },
        inRepository: { command: `./\${SECRET_ARG}` },
        script: { command: 'node', args: [`./x/\${SECRET_ARG}.mjs`] },
        url: { type: 'http', url: `\${SECRET_URL}/mcp` },
      }),
      { env: { ...ENV, SECRET_ARG: 'hunter2-value', SECRET_URL: 'hunter3:value' } },
    );
    expect(JSON.stringify(report)).not.toMatch(/hunter/);
    expect(report.findings.map((finding) => finding.message)).toEqual(
      expect.arrayContaining([
        `Server 'onPath': command '\${SECRET_ARG}' is not on PATH.`,
        `Server 'inRepository': command './\${SECRET_ARG}' is not in the repository.`,
        `Server 'script': the script './x/\${SECRET_ARG}.mjs' that node runs is not in the repository.`,
        expect.stringMatching(/^Server 'url': `url` uses a scheme \(after expansion\), which/),
      ]),
    );
  });

  it('quotes at most 200 characters of a matcher, once, however long the repository wrote it', async () => {
    const report = await doctorWith(hooks('PreToolUse', `Bash(${'x'.repeat(100_000)}`));
    const finding = report.findings.find((entry) => entry.rule === 'doctor/hook-matcher-never');
    expect(finding?.message).toMatch(
      /^The PreToolUse matcher 'Bash\(x+…' is not a valid regular expression \(Unterminated group\)/,
    );
    expect(finding?.message.length).toBeLessThan(400);
  });

  it('survives configuration nested thousands deep (the YAML parser that locates lines would abort node)', async () => {
    const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const report = await doctorWith({
      '.mcp.json': `{"mcpServers":{"x":${deep(5_000)}}}`,
      '.claude/settings.json': `{"permissions":{"allow":${deep(5_000)}}}`,
      '.claude/settings.local.json': `{"env":${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}}`,
    });
    expect(report.sources.map((source) => source.status)).toEqual(['skipped', 'skipped']);
  });
});

describe('covers', () => {
  const rule = (text: string) => {
    const match = /^([^(]+)(?:\((.*)\))?$/.exec(text) as RegExpExecArray;
    return { tool: match[1] as string, spec: match[2] };
  };
  it.each([
    ['Bash', 'Bash(anything)', true],
    ['Bash(*)', 'Bash(npm test)', true],
    ['Bash(npm *)', 'Bash(npm run test *)', true],
    ['Bash(npm *)', 'Bash(npm)', false],
    ['Bash(npm:*)', 'Bash(npm)', true],
    ['Bash(npm:*)', 'Bash(npmx run)', false],
    ['Bash(npm*)', 'Bash(npmx run)', true],
    ['Bash(npm run *)', 'Bash(npm *)', false],
    ['Bash(git * main)', 'Bash(git push main)', false],
    ['Read(./src/**)', 'Read(./src/a/*.ts)', true],
    ['Read(./src/**)', 'Read(./srcs/a.ts)', false],
    ['Read(src/**)', 'Read(./src/a.ts)', false],
    ['WebFetch(domain:*)', 'WebFetch(domain:github.com)', false],
    ['mcp__github', 'mcp__github__create_issue', true],
    ['mcp__github__*', 'mcp__github__create_issue', true],
    ['mcp__github', 'mcp__githubx__create_issue', false],
    ['mcp__github__create_issue', 'mcp__github__list_issues', false],
    ['Edit', 'Read(./a)', false],
  ])('%s covers %s: %s', (wide, narrow, expected) => {
    expect(covers(rule(wide), rule(narrow))).toBe(expected);
  });
});

describe('doctor on the precision corpus', () => {
  it('reports exactly the findings of its own rules judged in FINDINGS.md, all true', async () => {
    const corpus = new URL('../../../test/fixtures/real/', import.meta.url).pathname;
    const table = readFileSync(`${corpus}FINDINGS.md`, 'utf8').split('## doctor on the corpus')[1] ?? '';
    const judged = [...table.matchAll(/^\| (error|warning|note) \| (doctor\/\S+) \| (\S+) \| (TP|FP) \|/gm)];
    expect(judged.map((row) => row[4])).not.toContain('FP');
    const actual: string[] = [];
    for (const repository of readdirSync(corpus)
      .filter((name) => name.includes('__'))
      .sort()) {
      const report = await doctor(`${corpus}${repository}`, repository, { env: ENV });
      for (const finding of report.findings.filter((entry) => entry.rule.startsWith('doctor/')))
        actual.push(`${finding.severity} ${finding.rule} ${repository}/${finding.file}:${finding.line}`);
    }
    expect(actual).toEqual(judged.map((row) => `${row[1]} ${row[2]} ${row[3]}`));
  }, 60_000);
});

describe('the vendored settings schema', () => {
  it('accepts the effective settings, rebuilt from their keys, of two files it accepts (checked by Ajv)', async () => {
    const ajv = new Ajv.default({ strict: false, allErrors: true });
    ajvFormats.default(ajv);
    const validate = ajv.compile(
      JSON.parse(
        readFileSync(new URL('../verify/schemas/claude-code-settings.json', import.meta.url), 'utf8'),
      ),
    );
    const shared = {
      model: 'sonnet',
      env: { A: '1' },
      permissions: { allow: ['Read', 'Bash(npm test)'], deny: ['Bash(rm *)'], defaultMode: 'acceptEdits' },
      hooks: { PreToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command: 'true' }] }] },
    };
    const personal = {
      model: 'opus',
      env: { B: '2' },
      permissions: { allow: ['Grep'] },
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] },
    };
    expect(validate(shared) && validate(personal), JSON.stringify(validate.errors)).toBe(true);
    const report = await doctorWith({ ...settings(shared), ...local(personal) });
    const rebuilt: Record<string, unknown> = {};
    for (const { key, value } of report.settings) {
      const parts = key.split('.');
      let node = rebuilt;
      for (const part of parts.slice(0, -1)) {
        node[part] ??= {};
        node = node[part] as Record<string, unknown>;
      }
      node[parts.at(-1) as string] = value;
    }
    expect(validate(rebuilt), JSON.stringify(validate.errors)).toBe(true);
    expect(rebuilt).toMatchObject({
      model: 'opus',
      env: { A: '1', B: '2' },
      permissions: {
        allow: ['Grep', 'Read', 'Bash(npm test)'],
        deny: ['Bash(rm *)'],
        defaultMode: 'acceptEdits',
      },
    });
  });

  it('knows every top-level key the doctor reports as effective for the real corpus repositories', async () => {
    const schema = JSON.parse(
      readFileSync(new URL('../verify/schemas/claude-code-settings.json', import.meta.url), 'utf8'),
    ) as { properties: Record<string, unknown> };
    for (const repo of [
      'shanraisshan__claude-code-best-practice',
      'getsentry__sentry-javascript',
      'pydantic__pydantic-ai',
    ]) {
      const root = new URL(`../../../test/fixtures/real/${repo}`, import.meta.url).pathname;
      const report = await doctor(root, repo, { env: ENV });
      expect(report.settings.length, repo).toBeGreaterThan(0);
      for (const setting of report.settings)
        expect(schema.properties, setting.key).toHaveProperty(setting.key.split('.')[0] as string);
    }
  });
});
