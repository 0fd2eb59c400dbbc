// Prompts, completions and skills on the wire, without any domain server: the built fixture server
// (filesServer, one prompt and one skill) over stdio, through the official SDK client.
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

const bin = fileURLToPath(new URL('./filesServer/dist/bin.js', import.meta.url));
const skillsDir = fileURLToPath(new URL('./filesServer/skills/', import.meta.url));

const SkillList = z.object({
  skills: z.array(
    z.object({
      uri: z.string(),
      frontmatter: z.record(z.string(), z.unknown()),
      resources: z.array(z.object({ uri: z.string(), digest: z.string(), size: z.number() })),
    }),
  ),
});

let base: string;
let client: Client;

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'primitives-wire-')));
  await mkdir(path.join(base, 'tree', 'reports'), { recursive: true });
  await writeFile(path.join(base, 'tree', 'reports', 'run.xml'), '<testsuite/>');
  await writeFile(path.join(base, 'outside.txt'), 'secret');
  client = new Client({ name: 'primitives-wire-test', version: '0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [bin, '--allowed-dir', path.join(base, 'tree')],
      stderr: 'ignore',
    }),
  );
});

afterAll(async () => {
  await client.close();
  await rm(base, { recursive: true, force: true });
});

describe('prompts and completions over stdio', () => {
  it('announces prompts, completions and the skills extension', () => {
    const capabilities = client.getServerCapabilities();
    expect(capabilities?.prompts).toBeDefined();
    expect(capabilities?.completions).toEqual({});
    expect(capabilities?.extensions).toEqual({ 'io.modelcontextprotocol/skills': {} });
  });

  it('lists and renders the prompt', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(['read-a-file']);
    const rendered = await client.getPrompt({ name: 'read-a-file', arguments: { path: 'reports/run.xml' } });
    expect(rendered.messages[0]?.content).toMatchObject({
      type: 'text',
      text: expect.stringContaining('reports/run.xml'),
    });
    await expect(client.getPrompt({ name: 'read-a-file', arguments: {} })).rejects.toMatchObject({
      code: -32602,
    });
  });

  it('completes paths inside the allowed directory and nothing outside it', async () => {
    const ref = { type: 'ref/prompt', name: 'read-a-file' } as const;
    const complete = async (value: string) =>
      (await client.complete({ ref, argument: { name: 'path', value } })).completion.values;
    expect(await complete('')).toEqual(['reports/']);
    expect(await complete('reports/r')).toEqual(['reports/run.xml']);
    for (const outside of ['../', '../out', `${base}/`, '/etc/'])
      expect(await complete(outside), outside).toEqual([]);
  });
});

describe('skills over stdio', () => {
  it('lists the skill with the digest and size of every file on disk, and serves each file', async () => {
    const { skills } = await client.request({ method: 'skills/list', params: {} }, SkillList);
    expect(skills.map((skill) => skill.uri)).toEqual(['skill://read-a-file/SKILL.md']);
    const resources = skills[0]?.resources ?? [];
    expect(resources.map((resource) => resource.uri).sort()).toEqual([
      'skill://read-a-file/SKILL.md',
      'skill://read-a-file/templates/answer.md',
    ]);
    for (const resource of resources) {
      const bytes = await readFile(path.join(skillsDir, resource.uri.slice('skill://'.length)));
      expect(resource.digest).toBe(`sha256:${createHash('sha256').update(bytes).digest('hex')}`);
      expect(resource.size).toBe(bytes.length);
      const read = await client.readResource({ uri: resource.uri });
      expect(read.contents[0]).toMatchObject({
        uri: resource.uri,
        mimeType: 'text/markdown',
        text: bytes.toString('utf8'),
      });
    }
    const { resources: listed } = await client.listResources();
    expect(listed.map((resource) => resource.uri)).toContain('skill://read-a-file/SKILL.md');
  });

  it('answers skills/get for a served skill and -32602 for another', async () => {
    const Get = z.object({ skill: z.object({ uri: z.string() }) });
    const got = await client.request(
      { method: 'skills/get', params: { uri: 'skill://read-a-file/SKILL.md' } },
      Get,
    );
    expect(got.skill.uri).toBe('skill://read-a-file/SKILL.md');
    await expect(
      client.request({ method: 'skills/get', params: { uri: 'skill://nope/SKILL.md' } }, Get),
    ).rejects.toMatchObject({ code: -32602 });
  });
});
