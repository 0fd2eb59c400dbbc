// BOM imports read statically where Maven cannot be asked, or would refuse: a cycle between BOMs, a chain
// past the depth cap, and what is outside the tree (never guessed past). What Maven resolves is checked
// against Maven in test/oracles/mavenBoms.test.ts.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfinedDirectory } from '@groundwork/mcp-common/files';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DeclaredVersion } from '../../workspace/model.js';
import { readWorkspace } from '../../workspace/readWorkspace.js';
import { MAX_BOM_DEPTH, MAX_BOM_SEARCHES, MAX_PARENT_DEPTH } from './pomVersions.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'pom-versions-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const pom = (artifact: string, body: string) =>
  `<project><groupId>g</groupId><artifactId>${artifact}</artifactId><version>1</version>${body}</project>\n`;
/** An `import` of the BOM `artifact` (group g) or `group:artifact`, at version 1. */
const bom = (name: string) => {
  const [group, artifact] = name.includes(':') ? name.split(':') : ['g', name];
  return `<dependency><groupId>${group}</groupId><artifactId>${artifact}</artifactId><version>1</version><type>pom</type><scope>import</scope></dependency>`;
};
/** The managed entry for x:d at `version`. */
const d = (version: string) =>
  `<dependency><groupId>x</groupId><artifactId>d</artifactId><version>${version}</version></dependency>`;
const managed = (...entries: string[]) =>
  `<dependencyManagement><dependencies>${entries.join('')}</dependencies></dependencyManagement>`;
const USES =
  '<dependencies><dependency><groupId>x</groupId><artifactId>d</artifactId></dependency></dependencies>';

/** The version the module `app` (app/pom.xml) answers for x:d, in a tree of these POMs. */
async function versionOfD(files: Record<string, string>): Promise<DeclaredVersion | undefined> {
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
  await using directory = await ConfinedDirectory.confinedTo(root);
  const workspace = await readWorkspace(directory, 'boms');
  return workspace.systems
    .flatMap((system) => system.dependencies)
    .find((dependency) => dependency.module === 'g:app' && dependency.coordinates === 'x:d')?.version;
}

describe('BOM imports read statically', () => {
  it('refuses BOMs that import each other in a cycle, naming it, and answers no version', async () => {
    const files = {
      'app/pom.xml': pom('app', `${managed(bom('bom-x'))}${USES}`),
      'bom-x/pom.xml': pom('bom-x', managed(bom('bom-y'))),
    };
    const cyclic = await versionOfD({ ...files, 'bom-y/pom.xml': pom('bom-y', managed(bom('bom-x'))) });
    expect(cyclic?.spec).toBeUndefined();
    expect(cyclic?.unknown).toBe(
      'the BOMs import each other in a cycle (bom-x/pom.xml → bom-y/pom.xml → bom-x/pom.xml): Maven refuses this build.',
    );
    // Maven refuses the build even where a BOM in the cycle manages the artifact before its import.
    await rm(root, { recursive: true, force: true });
    const managedFirst = await versionOfD({
      ...files,
      'bom-y/pom.xml': pom('bom-y', managed(d('2'), bom('bom-x'))),
    });
    expect(managedFirst?.spec).toBeUndefined();
    expect(managedFirst?.unknown).toContain('a cycle');
  });

  it('follows BOMs importing BOMs up to the cap, and says so past it', async () => {
    const chain = (length: number) =>
      Object.fromEntries([
        ['app/pom.xml', pom('app', `${managed(bom('b0'))}${USES}`)],
        ...Array.from({ length }, (_, i) => [
          `b${i}/pom.xml`,
          pom(`b${i}`, i === length - 1 ? managed(d('3')) : managed(bom(`b${i + 1}`))),
        ]),
      ]);
    const within = await versionOfD(chain(MAX_BOM_DEPTH));
    expect(within).toMatchObject({
      spec: '3',
      source: 'bom',
      definedAt: { file: `b${MAX_BOM_DEPTH - 1}/pom.xml` },
    });
    await rm(root, { recursive: true, force: true });
    const past = await versionOfD(chain(MAX_BOM_DEPTH + 2));
    expect(past?.spec).toBeUndefined();
    expect(past?.unknown).toContain(`more than ${MAX_BOM_DEPTH} deep`);
  });

  it('does not answer past a BOM outside the tree: it comes first and may manage the artifact', async () => {
    const version = await versionOfD({
      'app/pom.xml': pom('app', `${managed(bom('org.outside:bom'), bom('bom-x'))}${USES}`),
      'bom-x/pom.xml': pom('bom-x', managed(d('4'))),
    });
    expect(version).toMatchObject({ source: 'bom', via: 'org.outside:bom' });
    expect(version?.spec).toBeUndefined();
    expect(version?.unknown).toContain('org.outside:bom:1, which is not a POM in the tree');
    // Listed after the in-tree BOM, it is never reached.
    await rm(root, { recursive: true, force: true });
    const first = await versionOfD({
      'app/pom.xml': pom('app', `${managed(bom('bom-x'), bom('org.outside:bom'))}${USES}`),
      'bom-x/pom.xml': pom('bom-x', managed(d('4'))),
    });
    expect(first).toMatchObject({
      spec: '4',
      source: 'bom',
      via: 'g:bom-x:1 bom-x/pom.xml:1 <dependencyManagement>',
    });
  });

  it('does not answer from a BOM when a parent outside the tree comes first', async () => {
    const version = await versionOfD({
      'app/pom.xml': pom(
        'app',
        `<parent><groupId>org.outside</groupId><artifactId>parent</artifactId><version>7</version></parent>${managed(bom('bom-x'))}${USES}`,
      ),
      'bom-x/pom.xml': pom('bom-x', managed(d('4'))),
    });
    expect(version).toMatchObject({ source: 'parent', via: 'org.outside:parent' });
    expect(version?.spec).toBeUndefined();
    expect(version?.unknown).toContain('org.outside:parent:7, which is not in the tree');
  });
});

describe('hostile trees answer unknown, in bounded time and memory', () => {
  it('refuses a property that references another hundreds of thousands of times (no engine string limit hit)', async () => {
    // 600,000 references to 999 characters would be 600 million characters, past what V8 holds in a string.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Maven's property syntax, not a template
    const reference = '${p0}';
    const properties = `<properties><p0>${'x'.repeat(999)}</p0><p1>${reference.repeat(600_000)}</p1></properties>`;
    const version = await versionOfD({
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Maven's property syntax, not a template
      'app/pom.xml': pom('app', `${properties}${managed(d('${p1}'))}${USES}`),
    });
    expect(version?.spec).toBeUndefined();
    expect(version?.unknown).toContain('cannot be resolved');
  });

  it('answers no BOM when two POMs of the tree have its coordinates, naming both', async () => {
    const version = await versionOfD({
      'app/pom.xml': pom('app', `${managed(bom('bom-x'))}${USES}`),
      'one/pom.xml': pom('bom-x', managed(d('1'))),
      'two/pom.xml': pom('bom-x', managed(d('2'))),
    });
    expect(version).toMatchObject({ source: 'bom', via: 'g:bom-x' });
    expect(version?.spec).toBeUndefined();
    expect(version?.unknown).toContain('2 POMs of the tree are g:bom-x:1 (one/pom.xml, two/pom.xml)');
  });

  it('stops searching BOMs past its budget, answering what it searched and saying where it stopped', async () => {
    // Each versionless dependency searches all the BOMs (none manages it): their product passes the budget.
    const boms = 1_000;
    const dependencies = Math.ceil(MAX_BOM_SEARCHES / boms) + 10;
    const uses = Array.from(
      { length: dependencies },
      (_, i) => `<dependency><groupId>x</groupId><artifactId>u${i}</artifactId></dependency>`,
    ).join('');
    const files: Record<string, string> = {
      'app/pom.xml': pom(
        'app',
        `${managed(...Array.from({ length: boms }, (_, i) => bom(`b${i}`)))}<dependencies>${uses}</dependencies>`,
      ),
    };
    for (let i = 0; i < boms; i++) files[`b${i}/pom.xml`] = pom(`b${i}`, managed(''));
    for (const [file, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(root, file)), { recursive: true });
      await writeFile(path.join(root, file), text);
    }
    await using directory = await ConfinedDirectory.confinedTo(root);
    const workspace = await readWorkspace(directory, 'boms');
    const versions = workspace.systems
      .flatMap((system) => system.dependencies)
      .filter((dependency) => dependency.module === 'g:app' && dependency.coordinates.startsWith('x:u'))
      .map((dependency) => dependency.version);
    expect(versions).toHaveLength(dependencies);
    expect(versions[0]?.unknown).toContain('no <dependencyManagement> entry for it');
    expect(versions[dependencies - 1]).toMatchObject({ source: 'bom' });
    expect(versions[dependencies - 1]?.unknown).toContain(`searched ${MAX_BOM_SEARCHES} times`);
  });
  it('follows a chain of parents up to MAX_PARENT_DEPTH POMs, and past it answers unknown, saying why', async () => {
    // app → p(n-2) → … → p0, siblings linked by relativePath; p0 manages x:d.
    const chain = (length: number) => {
      const parent = (index: number) =>
        `<parent><groupId>g</groupId><artifactId>p${index}</artifactId><version>1</version><relativePath>../p${index}/pom.xml</relativePath></parent>`;
      const files: Record<string, string> = { 'p0/pom.xml': pom('p0', managed(d('4'))) };
      for (let index = 1; index < length - 1; index += 1) {
        files[`p${index}/pom.xml`] = pom(`p${index}`, parent(index - 1));
      }
      files['app/pom.xml'] = pom('app', `${parent(length - 2)}${USES}`);
      return files;
    };
    expect((await versionOfD(chain(MAX_PARENT_DEPTH)))?.spec).toBe('4');
    await rm(root, { recursive: true, force: true });
    await mkdir(root);
    const cut = await versionOfD(chain(MAX_PARENT_DEPTH + 1));
    expect(cut?.spec).toBeUndefined();
    expect(cut?.unknown).toContain(`g:p0:1, which is past the ${MAX_PARENT_DEPTH} parents read`);
  });
});
