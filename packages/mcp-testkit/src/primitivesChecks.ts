// Prompts, completions and skills, the same on every transport, through the official SDK client: every
// prompt rendered with the contract spec's sample arguments, every completable argument completed (and
// refused outside the allowed directory), every skill file fetched and checked against the bytes on disk —
// the package's own skills folder, read here, is the oracle.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { CompleteResultSchema, GetPromptResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import type { Connection, TransportContractSpec, TransportHarness } from './contractSpec.js';
import { nullPaths } from './jsonChecks.js';
import { TEST_HANG_GUARD_MS } from './serverProcess.js';

const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

const SkillEntry = z.object({
  uri: z.string(),
  frontmatter: z.record(z.string(), z.unknown()),
  resources: z.array(z.object({ uri: z.string(), digest: z.string(), size: z.number() })),
});
const SkillList = z.object({ skills: z.array(SkillEntry), nextCursor: z.string().optional() });
const SkillGet = z.object({ skill: SkillEntry });

/** The skills folder a server's package ships: `skills/` beside the built bin's `dist/`. */
function skillsFolderOf(spec: TransportContractSpec): string {
  return path.resolve(path.dirname(spec.bin), '..', 'skills');
}

export function describePrimitives(spec: TransportContractSpec, harness: TransportHarness): void {
  let connection: Connection;
  beforeAll(async () => {
    connection = await harness.connect();
  }, TEST_HANG_GUARD_MS);
  afterAll(async () => {
    await connection?.close();
  });

  it('renders every prompt with the sample arguments of its contract spec, and names a missing one', async () => {
    const { client } = connection;
    const { prompts } = await client.listPrompts();
    for (const prompt of prompts) {
      expect(prompt.description?.trim(), `description of prompt ${prompt.name}`).toBeTruthy();
      const args = spec.promptArguments?.[prompt.name] ?? {};
      const required = (prompt.arguments ?? []).filter((argument) => argument.required === true);
      for (const argument of required) {
        expect(
          args[argument.name],
          `promptArguments['${prompt.name}']['${argument.name}'] in the contract spec (a required argument)`,
        ).toBeDefined();
      }
      const rendered = await client.getPrompt({ name: prompt.name, arguments: args });
      expect(rendered.messages.length, `messages of prompt ${prompt.name}`).toBeGreaterThan(0);
      for (const message of rendered.messages) {
        expect(message.content.type).toBe('text');
        expect((message.content as { text: string }).text.trim()).not.toBe('');
      }
      expect(nullPaths(rendered), `explicit nulls in prompt ${prompt.name}`).toEqual([]);
      const first = required[0];
      if (first === undefined) continue;
      const { [first.name]: _omitted, ...withoutIt } = args;
      await expect(client.getPrompt({ name: prompt.name, arguments: withoutIt })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining(`'${first.name}'`),
      });
    }
  });

  it('completes every prompt argument within bounds, when it announces completions', async () => {
    const { client } = connection;
    const { prompts } = await client.listPrompts();
    if (client.getServerCapabilities()?.completions === undefined) {
      expect(spec.completionSamples ?? [], 'completion samples, but completions are not announced').toEqual(
        [],
      );
      return;
    }
    for (const prompt of prompts) {
      for (const argument of prompt.arguments ?? []) {
        const { completion } = await client.complete({
          ref: { type: 'ref/prompt', name: prompt.name },
          argument: { name: argument.name, value: '' },
          context: { arguments: spec.promptArguments?.[prompt.name] ?? {} },
        });
        expect(completion.values.length, `${prompt.name}.${argument.name}`).toBeLessThanOrEqual(100);
      }
    }
  });

  it('offers the sample completions, and nothing outside the allowed directory', async () => {
    const { client } = connection;
    for (const sample of spec.completionSamples ?? []) {
      const ask = async (value: string) =>
        (
          await client.complete({
            ref: { type: 'ref/prompt', name: sample.prompt },
            argument: { name: sample.argument, value },
            context: { arguments: sample.arguments ?? {} },
          })
        ).completion.values;
      const where = `${sample.prompt}.${sample.argument} completing '${sample.value}'`;
      expect(await ask(sample.value), where).toContain(sample.offers);
      if (sample.path !== true) continue;
      const outside = ['../', '../../', '/etc/', '/', `${path.dirname(spec.allowedDir)}/`];
      for (const value of outside) expect(await ask(value), `${where}: '${value}' is outside`).toEqual([]);
    }
  });

  it('answers a hostile prompts/get, completion/complete and resources/read with a short -32602 naming what is wrong', async () => {
    const { client } = connection;
    const refusal = (request: Promise<unknown>) =>
      request.then(
        () => undefined,
        (error: unknown) => error as { code?: number; message?: string },
      );
    const { prompts } = await client.listPrompts();
    const prompt = prompts.find((candidate) => (candidate.arguments ?? []).length > 0);
    if (prompt !== undefined) {
      const name = prompt.arguments?.[0]?.name as string;
      const error = await refusal(
        client.request(
          { method: 'prompts/get', params: { name: prompt.name, arguments: { [name]: 1 } } } as never,
          GetPromptResultSchema,
        ),
      );
      expect(error?.code, `prompts/get ${prompt.name} with a number for '${name}'`).toBe(-32602);
      expect(error?.message).toContain(name);
      expect(error?.message, 'a message, not a schema dump').not.toMatch(/[[{]/);
      if (client.getServerCapabilities()?.completions !== undefined) {
        const completion = await refusal(
          client.request(
            {
              method: 'completion/complete',
              params: {
                ref: { type: 'ref/prompt', name: prompt.name },
                argument: { name, value: '' },
                context: { arguments: { [name]: { nested: true } } },
              },
            } as never,
            CompleteResultSchema,
          ),
        );
        expect(completion?.code, 'completion/complete with an object in context.arguments').toBe(-32602);
        expect(completion?.message).not.toMatch(/[[{]/);
      }
    }
    const uri = `skill://${'a'.repeat(100_000)}/ghp_${'f'.repeat(36)}`;
    const unknown = await refusal(client.readResource({ uri }));
    expect(unknown?.code, 'resources/read of an unknown 100 KB URI').toBe(-32602);
    expect(JSON.stringify(unknown).length, 'the error quoting a 100 KB URI').toBeLessThan(2_000);
  });

  it('lists its skills with the digests and sizes of the files in its package, and serves each file', async () => {
    const { client } = connection;
    const folder = skillsFolderOf(spec);
    const declared = client.getServerCapabilities()?.extensions?.[SKILLS_EXTENSION];
    if (!existsSync(folder)) {
      expect(declared, `the skills extension is declared but ${folder} does not exist`).toBeUndefined();
      return;
    }
    expect(declared, `the skills extension, for the skills in ${folder}`).toBeDefined();
    const onDisk = await skillFilesIn(folder);
    const { skills, nextCursor } = await client.request({ method: 'skills/list', params: {} }, SkillList);
    expect(nextCursor).toBeUndefined();
    expect(skills.map((skill) => skill.uri).sort()).toEqual(
      [...onDisk.keys()].map((name) => `skill://${name}/SKILL.md`).sort(),
    );
    for (const skill of skills) {
      const name = skill.uri.slice('skill://'.length, -'/SKILL.md'.length);
      expect(skill.frontmatter.name).toBe(name);
      expect(skill.resources.map((resource) => resource.uri).sort()).toEqual(
        (onDisk.get(name) ?? []).map((file) => `skill://${name}/${file}`).sort(),
      );
      for (const resource of skill.resources) {
        const bytes = await readFile(path.join(folder, resource.uri.slice('skill://'.length)));
        expect(resource.digest, resource.uri).toBe(
          `sha256:${createHash('sha256').update(bytes).digest('hex')}`,
        );
        expect(resource.size, resource.uri).toBe(bytes.length);
        const [content] = (await client.readResource({ uri: resource.uri })).contents;
        const served =
          content !== undefined && 'text' in content
            ? Buffer.from(content.text, 'utf8')
            : Buffer.from((content as { blob: string }).blob, 'base64');
        expect(served.equals(bytes), `resources/read ${resource.uri} gives the bytes on disk`).toBe(true);
      }
      const got = await client.request({ method: 'skills/get', params: { uri: skill.uri } }, SkillGet);
      expect(got.skill).toEqual(skill);
    }
    await expect(
      client.request({ method: 'skills/get', params: { uri: 'skill://no-such-skill/SKILL.md' } }, SkillGet),
    ).rejects.toMatchObject({ code: -32602 });
  });
}

/** Skill name → its files (relative, `/`-separated), for every folder of `skills/` holding a SKILL.md. */
async function skillFilesIn(folder: string): Promise<Map<string, string[]>> {
  const skills = new Map<string, string[]>();
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const files = (await readdir(path.join(folder, entry.name), { recursive: true, withFileTypes: true }))
      .filter((file) => file.isFile())
      .map((file) => path.relative(path.join(folder, entry.name), path.join(file.parentPath, file.name)));
    if (files.includes('SKILL.md'))
      skills.set(
        entry.name,
        files.map((file) => file.split(path.sep).join('/')),
      );
  }
  return skills;
}
