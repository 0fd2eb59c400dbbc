import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SkillCatalog } from './skillCatalog.js';
import { SKILL_LIMITS } from './skillFolder.js';

let base: string;
let folder: string;
let catalog: SkillCatalog;
const warnings: string[] = [];

const skillMd = (name: string, extra = '') =>
  `---\nname: ${name}\ndescription: Does ${name} things.\n${extra}---\n\n# ${name}\n`;

beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'groundwork-skills-'));
  folder = path.join(base, 'skills');
  await mkdir(path.join(base, 'outside'));
  await writeFile(path.join(base, 'outside', 'secret.md'), 'secret');
  const files: Record<string, string | Buffer> = {
    'alpha/SKILL.md': skillMd('alpha', 'metadata:\n  version: "1.0"\nallowed-tools: [read_text]\n'),
    'alpha/templates/report.md': '# Report\n',
    'alpha/scripts/run.sh': '#!/bin/sh\necho hi\n',
    'alpha/image.bin': Buffer.from([0, 1, 2, 255]),
    'beta/SKILL.md': `\uFEFF${skillMd('beta')}`,
    'no-manifest/README.md': 'nothing',
    'Bad_Name/SKILL.md': skillMd('Bad_Name'),
    'mismatch/SKILL.md': skillMd('other'),
    'no-frontmatter/SKILL.md': '# Just text\n',
    'bad-yaml/SKILL.md': '---\nname: [unclosed\n---\n',
  };
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(folder, name)), { recursive: true });
    await writeFile(path.join(folder, name), content);
  }
  await symlink('../../outside/secret.md', path.join(folder, 'alpha', 'leak.md'));
  await symlink('../../outside', path.join(folder, 'alpha', 'leak-folder'));
  await symlink('templates/report.md', path.join(folder, 'alpha', 'same-report.md'));
  await mkdir(path.join(folder, 'crowded'));
  await writeFile(path.join(folder, 'crowded', 'SKILL.md'), skillMd('crowded'));
  for (let index = 0; index < SKILL_LIMITS.maxFilesPerSkill; index++) {
    await writeFile(path.join(folder, 'crowded', `file-${index}.md`), '');
  }
  const logger = pino(
    { level: 'warn' },
    new Writable({
      write: (chunk, _encoding, done) => {
        warnings.push(String(chunk));
        done();
      },
    }),
  );
  catalog = new SkillCatalog(pathToFileURL(`${folder}/`), logger);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const sha256 = (bytes: Buffer) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

describe('skills/list', () => {
  it('serves only the valid skills, each with its parsed frontmatter', async () => {
    const { skills } = await catalog.list({});
    expect(skills.map((skill) => skill.uri)).toEqual(['skill://alpha/SKILL.md', 'skill://beta/SKILL.md']);
    expect(skills[0]?.frontmatter).toEqual({
      name: 'alpha',
      description: 'Does alpha things.',
      metadata: { version: '1.0' },
      'allowed-tools': ['read_text'],
    });
    for (const skill of ['no-manifest', 'Bad_Name', 'mismatch', 'no-frontmatter', 'bad-yaml', 'crowded']) {
      expect(warnings.join(''), skill).toContain(`"skill":"${skill}"`);
    }
  });

  it('lists every file once, SKILL.md first, with the SHA-256 and size of the bytes on disk', async () => {
    const alpha = (await catalog.list({})).skills[0];
    const uris = alpha?.resources.map((resource) => resource.uri);
    expect(uris).toEqual([
      'skill://alpha/SKILL.md',
      'skill://alpha/image.bin',
      'skill://alpha/same-report.md',
      'skill://alpha/scripts/run.sh',
      'skill://alpha/templates/report.md',
    ]);
    for (const resource of alpha?.resources ?? []) {
      const relative = resource.uri.slice('skill://'.length);
      const bytes = await readFile(path.join(folder, relative));
      expect(resource, relative).toEqual({ uri: resource.uri, digest: sha256(bytes), size: bytes.length });
    }
  });

  it('never follows a link out of the skills folder', async () => {
    const served = JSON.stringify(await catalog.list({}));
    expect(served).not.toContain('leak');
    expect(await catalog.read('skill://alpha/leak.md')).toBeUndefined();
  });

  it('refuses a cursor it never gave', async () => {
    await expect(catalog.list({ cursor: 'x' })).rejects.toMatchObject({ code: -32602 });
  });
});

describe('skills/get and resources/read', () => {
  it('returns the same entry as the list, and -32602 for a skill it does not serve', async () => {
    const { skills } = await catalog.list({});
    expect((await catalog.get({ uri: 'skill://beta/SKILL.md' })).skill).toEqual(skills[1]);
    await expect(catalog.get({ uri: 'skill://mismatch/SKILL.md' })).rejects.toMatchObject({ code: -32602 });
    await expect(catalog.get({})).rejects.toMatchObject({ code: -32602 });
  });

  it('reads markdown as text/markdown, keeps a byte order mark, and sends binary as a blob', async () => {
    const manifest = await catalog.read('skill://beta/SKILL.md');
    expect(manifest?.contents[0]).toMatchObject({ mimeType: 'text/markdown' });
    const text = manifest?.contents[0]?.text as string;
    expect(sha256(Buffer.from(text, 'utf8'))).toBe(
      sha256(await readFile(path.join(folder, 'beta', 'SKILL.md'))),
    );
    const binary = await catalog.read('skill://alpha/image.bin');
    expect(binary?.contents[0]).toMatchObject({ mimeType: 'application/octet-stream', blob: 'AAEC/w==' });
    expect(await catalog.read('skill://alpha/nope.md')).toBeUndefined();
    expect(await catalog.read('groundwork://x/usage')).toBeUndefined();
  });

  it('lists each SKILL.md as a resource named and described by its frontmatter', async () => {
    expect((await catalog.resources())[0]).toMatchObject({
      uri: 'skill://alpha/SKILL.md',
      name: 'alpha',
      description: 'Does alpha things.',
      mimeType: 'text/markdown',
    });
  });

  it('serves no skills, and does not fail, when the folder is missing', async () => {
    const silent = pino({ level: 'silent' });
    const missing = new SkillCatalog(pathToFileURL(`${base}/nope/`), silent);
    expect(await missing.list({})).toEqual({ skills: [] });
  });
});

describe('a hostile skills folder', () => {
  it('serves a skill without the FIFO, the link to a FIFO and the link out inside it, and digests what it serves', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'groundwork-skills-fifo-'));
    try {
      const skill = path.join(root, 'skills', 'gamma');
      await mkdir(skill, { recursive: true });
      await writeFile(path.join(skill, 'SKILL.md'), skillMd('gamma'));
      execFileSync('mkfifo', [path.join(skill, 'pipe.md')]);
      await symlink('pipe.md', path.join(skill, 'to-pipe.md'));
      await symlink('/etc/hostname', path.join(skill, 'host.md'));
      const hostile = new SkillCatalog(
        pathToFileURL(`${path.join(root, 'skills')}/`),
        pino({ level: 'silent' }),
      );
      const { skills } = await hostile.list({});
      expect(skills.map((entry) => entry.resources.map((resource) => resource.uri))).toEqual([
        ['skill://gamma/SKILL.md'],
      ]);
      const served = await hostile.read('skill://gamma/SKILL.md');
      const text = String(served?.contents[0]?.text);
      expect(skills[0]?.resources[0]?.digest).toBe(sha256(Buffer.from(text)));
      expect(await hostile.read('skill://gamma/to-pipe.md')).toBeUndefined();
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
