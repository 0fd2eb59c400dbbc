import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtListing } from './builtListing.js';

const tools = [
  { name: 'a_tool', title: 'A', description: 'a', inputSchema: { type: 'object' }, annotations: {} },
  { name: 'b_tool', title: 'B', description: 'b', inputSchema: { type: 'object' }, annotations: {} },
];

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'built-listing-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function fileWith(content: string): Promise<URL> {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.json`);
  await writeFile(file, content);
  return pathToFileURL(file);
}

describe('builtListing', () => {
  it("serves the listing written by this code's build", async () => {
    const file = await fileWith(JSON.stringify({ build: 'b1', tools }));
    expect(builtListing(['a_tool', 'b_tool'], 'b1', file)).toEqual(tools);
  });

  it('computes it instead for code without a build id (run from source)', async () => {
    const file = await fileWith(JSON.stringify({ build: 'b1', tools }));
    expect(builtListing(['a_tool', 'b_tool'], undefined, file)).toBeUndefined();
    // The default: these tests run from source, whose code has no id.
    expect(builtListing(['a_tool', 'b_tool'])).toBeUndefined();
  });

  it('ignores a listing from another build, of other tools, or in another order', async () => {
    const file = await fileWith(JSON.stringify({ build: 'b1', tools }));
    expect(builtListing(['a_tool', 'b_tool'], 'b2', file)).toBeUndefined();
    expect(builtListing(['a_tool'], 'b1', file)).toBeUndefined();
    expect(builtListing(['b_tool', 'a_tool'], 'b1', file)).toBeUndefined();
    expect(builtListing(['a_tool', 'b_tool', 'c_tool'], 'b1', file)).toBeUndefined();
  });

  it('ignores a missing or damaged file', async () => {
    const missing = pathToFileURL(path.join(dir, 'absent.json'));
    expect(builtListing(['a_tool', 'b_tool'], 'b1', missing)).toBeUndefined();
    for (const damaged of [
      '{',
      'null',
      '[]',
      '{"build":"b1"}',
      '{"build":"b1","tools":{}}',
      '{"build":"b1","tools":[null,1]}',
    ]) {
      expect(builtListing(['a_tool', 'b_tool'], 'b1', await fileWith(damaged))).toBeUndefined();
    }
  });
});
