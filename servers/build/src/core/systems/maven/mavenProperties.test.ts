// Maven properties that refer to properties, read statically: hostile chains are refused by name, cheaply,
// and never answered as a version (the chains Maven resolves are checked against Maven in jvmOracles).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfinedDirectory } from '@groundwork/mcp-common/files';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeclaredVersion } from '../../workspace/model.js';
import { readWorkspace } from '../../workspace/readWorkspace.js';

const ref = (name: string) => `$${'{'}${name}}`;
let root: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'maven-properties-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Each dependency's declared version, for a POM with these properties and one dependency per reference. */
async function versions(properties: string, references: string[]): Promise<DeclaredVersion[]> {
  const dependencies = references
    .map(
      (reference, index) =>
        `<dependency><groupId>g</groupId><artifactId>d${index}</artifactId><version>${reference}</version></dependency>`,
    )
    .join('\n');
  await writeFile(
    path.join(root, 'pom.xml'),
    `<project><groupId>g</groupId><artifactId>a</artifactId><version>1</version>
<properties>${properties}</properties>
<dependencies>${dependencies}</dependencies></project>\n`,
  );
  await using directory = await ConfinedDirectory.confinedTo(root);
  const workspace = await readWorkspace(directory, 'properties');
  return (workspace.systems[0]?.dependencies ?? []).map((dependency) => dependency.version);
}

describe('Maven property references', () => {
  it('refuses a cycle, naming the property, instead of following it', async () => {
    const [version] = await versions(`<a>${ref('b')}</a><b>${ref('a')}</b>`, [ref('a')]);
    expect(version).toMatchObject({ source: 'property', via: 'a' });
    expect(version?.spec).toBeUndefined();
    expect(version?.unknown).toContain('the property a ');
  });

  it('refuses a chain that doubles at each step once it passes the cap, naming where it did', async () => {
    // p0 = p1p1, p1 = p2p2 … p11 = p12p12, p12 = 1,000 characters: fully expanded, p0 would be 4 MB.
    const chain = Array.from(
      { length: 12 },
      (_, i) => `<p${i}>${ref(`p${i + 1}`)}${ref(`p${i + 1}`)}</p${i}>`,
    );
    const properties = `${chain.join('')}<p12>${'x'.repeat(1_000)}</p12>`;
    const found = await versions(properties, [ref('p0'), ref('p12')]);
    expect(found[0]?.spec).toBeUndefined();
    expect(found[0]?.unknown).toContain('the property p11 ');
    // The 1,000 characters themselves are within the cap: a property's own value is answered as written.
    expect(found[1]?.spec).toHaveLength(1_000);
  });
});
