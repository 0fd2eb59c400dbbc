// The local Maven repository as hostile input, and the cache of answers that read it. What Maven resolves from
// a repository is checked against Maven in test/oracles/mavenRepositoryBoms.test.ts; here what Maven cannot be
// asked about (or refuses): missing POMs, links out, a FIFO, a huge POM, cycles, chains past the caps.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfinedDirectory } from '@groundwork/mcp-common/files';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DeclaredVersion, Workspace } from '../../workspace/model.js';
import { readWorkspace } from '../../workspace/readWorkspace.js';
import { MAX_REPOSITORY_POM_BYTES, MAX_REPOSITORY_POMS, MAX_REPOSITORY_ROUNDS } from './mavenRepository.js';
import { MAX_PARENT_DEPTH } from './pomVersions.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'maven-repository-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const pom = (coordinates: string, body: string) => {
  const [group, artifact] = coordinates.split(':');
  return `<project><groupId>${group}</groupId><artifactId>${artifact}</artifactId><version>1</version>${body}</project>\n`;
};
const bom = (group: string, artifact: string, version = '1') =>
  `<dependency><groupId>${group}</groupId><artifactId>${artifact}</artifactId>\n<version>${version}</version><type>pom</type><scope>import</scope></dependency>`;
const d = (version: string) =>
  `<dependency><groupId>x</groupId><artifactId>d</artifactId><version>${version}</version></dependency>`;
const managed = (...entries: string[]) =>
  `<dependencyManagement><dependencies>${entries.join('')}</dependencies></dependencyManagement>`;
const parent = (group: string, artifact: string) =>
  `<parent><groupId>${group}</groupId><artifactId>${artifact}</artifactId><version>1</version><relativePath/></parent>`;
const USES =
  '<dependencies><dependency><groupId>x</groupId><artifactId>d</artifactId></dependency></dependencies>';
/** Where `g:a` (version 1) lies in the repository. */
const at = (coordinates: string) => {
  const [group = '', artifact = ''] = coordinates.split(':');
  return `m2/${group.replace(/\./g, '/')}/${artifact}/1/${artifact}-1.pom`;
};

async function write(files: Record<string, string>): Promise<void> {
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
}

/** The workspace of `tree/`, reading `m2/` as the local repository (unless `repository` is false). */
async function read(repository = true, now?: () => number): Promise<Workspace> {
  await mkdir(path.join(root, 'm2'), { recursive: true });
  await using tree = await ConfinedDirectory.confinedTo(path.join(root, 'tree'));
  await using m2 = await ConfinedDirectory.confinedTo(path.join(root, 'm2'));
  return await readWorkspace(tree, 'tree', {
    ...(repository ? { mavenRepository: { directory: m2, shown: 'm2' } } : {}),
    ...(now === undefined ? {} : { now }),
  });
}

const versionOfD = (workspace: Workspace): DeclaredVersion | undefined =>
  workspace.systems
    .flatMap((system) => system.dependencies)
    .find((dependency) => dependency.module === 'g:app' && dependency.coordinates === 'x:d')?.version;

/** app imports `r:bom`; the repository's r:bom is `bomText` (or not there). */
async function importing(bomText?: string): Promise<DeclaredVersion | undefined> {
  await write({
    'tree/pom.xml': pom('g:app', `${managed(bom('r', 'bom'))}${USES}`),
    ...(bomText === undefined ? {} : { [at('r:bom')]: bomText }),
  });
  return versionOfD(await read());
}

describe('the local Maven repository', () => {
  it("answers a repository BOM's version, naming the BOM, with the tree's import as the line to edit", async () => {
    const version = await importing(pom('r:bom', managed(d('2.5'))));
    expect(version).toMatchObject({
      spec: '2.5',
      source: 'bom',
      via: 'r:bom:1 m2/r/bom/1/bom-1.pom:1 <dependencyManagement>',
      definedAt: { file: 'pom.xml', line: 2 },
    });
    expect(version?.unknown).toBeUndefined();
  });

  it('matches managed entries by type and classifier too, as Maven does', async () => {
    const classified = `<dependency><groupId>x</groupId><artifactId>d</artifactId><version>9</version><classifier>classes</classifier></dependency>`;
    const tests = `<dependency><groupId>x</groupId><artifactId>d</artifactId><version>8</version><type>test-jar</type></dependency>`;
    const version = await importing(pom('r:bom', managed(classified, tests, d('2.5'))));
    expect(version?.spec).toBe('2.5');
  });

  it('says the repository is not read unless the operator allowed it', async () => {
    await write({
      'tree/pom.xml': pom('g:app', `${managed(bom('r', 'bom'))}${USES}`),
      [at('r:bom')]: pom('r:bom', managed(d('2.5'))),
    });
    const version = versionOfD(await read(false));
    expect(version?.spec).toBeUndefined();
    expect(version?.unknown).toContain('r:bom:1, which is not a POM in the tree');
    expect(version?.unknown).toContain('--read-maven-repository');
  });

  it('names the coordinates of a missing POM, the repository as given and never a server path', async () => {
    const version = await importing();
    expect(version?.spec).toBeUndefined();
    expect(version?.unknown).toBe(
      'the version comes from the imported BOM r:bom:1, which is not a POM in the tree (is not in the local repository m2 (no r/)); only Maven (resolve: true) knows it.',
    );
  });

  it('refuses a repository POM that is a link out of the repository, a FIFO, too large or broken', async () => {
    await write({ 'outside.pom': pom('r:bom', managed(d('6.6'))) });
    await mkdir(path.dirname(path.join(root, at('r:bom'))), { recursive: true });
    await symlink(path.join(root, 'outside.pom'), path.join(root, at('r:bom')));
    const linked = await importing();
    expect(linked?.spec).toBeUndefined();
    expect(linked?.unknown).toContain(
      'could not be read from the local repository m2: r/bom/1/bom-1.pom is a link that leads out of the repository',
    );
    expect(linked?.unknown).not.toContain(root);

    await rm(path.join(root, at('r:bom')));
    execFileSync('mkfifo', [path.join(root, at('r:bom'))]);
    const fifo = await importing();
    expect(fifo?.spec).toBeUndefined();
    expect(fifo?.unknown).toContain('r/bom/1/bom-1.pom is not a regular file');

    await rm(path.join(root, at('r:bom')));
    await writeFile(path.join(root, at('r:bom')), pom('r:bom', managed(d('6.6'))));
    await truncate(path.join(root, at('r:bom')), 50 * 1024 * 1024);
    const huge = await importing();
    expect(huge?.spec).toBeUndefined();
    expect(huge?.unknown).toContain('r/bom/1/bom-1.pom is larger than the 1048576 bytes read');

    await rm(path.join(root, at('r:bom')));
    await writeFile(path.join(root, at('r:bom')), '<settings/>');
    const broken = await importing();
    expect(broken?.spec).toBeUndefined();
    expect(broken?.unknown).toContain('r/bom/1/bom-1.pom does not parse');
  });

  it('refuses coordinates that would make a path out of the repository', async () => {
    await write({ 'tree/pom.xml': pom('g:app', `${managed(bom('..', '..'))}${USES}`) });
    const version = versionOfD(await read());
    expect(version?.spec).toBeUndefined();
    expect(version?.unknown).toContain('cannot be looked up in the local repository m2');
  });

  it('does not look up a BOM whose version is a range', async () => {
    await write({ 'tree/pom.xml': pom('g:app', `${managed(bom('r', 'bom', '[1,2)'))}${USES}`) });
    const version = versionOfD(await read());
    expect(version?.unknown).toContain('its version [1,2) is a range or not a plain version');
  });

  it('refuses BOMs of the repository importing each other in a cycle', async () => {
    await write({
      [at('r:bom-y')]: pom('r:bom-y', managed(bom('r', 'bom'), d('9'))),
    });
    const version = await importing(pom('r:bom', managed(bom('r', 'bom-y'))));
    expect(version?.spec).toBeUndefined();
    expect(version?.unknown).toBe(
      'the BOMs import each other in a cycle (m2/r/bom/1/bom-1.pom → m2/r/bom-y/1/bom-y-1.pom → m2/r/bom/1/bom-1.pom): Maven refuses this build.',
    );
  });

  it(`follows parents through the repository at most ${MAX_PARENT_DEPTH} deep`, async () => {
    const chain = MAX_PARENT_DEPTH + 5;
    const files: Record<string, string> = {
      'tree/pom.xml': `<project><groupId>g</groupId><artifactId>app</artifactId><version>1</version>${parent('r', 'p0')}${USES}</project>`,
    };
    for (let index = 0; index < chain; index++) {
      const last = index === chain - 1;
      files[at(`r:p${index}`)] = pom(`r:p${index}`, last ? managed(d('1.0')) : parent('r', `p${index + 1}`));
    }
    await write(files);
    const version = versionOfD(await read());
    expect(version?.spec).toBeUndefined();
    expect(version?.unknown).toContain(`past the ${MAX_PARENT_DEPTH} parents read`);
    // Within the cap, the same chain answers.
    files[at('r:p10')] = pom('r:p10', managed(d('1.0')));
    await write(files);
    expect(versionOfD(await read())).toMatchObject({ spec: '1.0', source: 'parent', definedAt: { line: 1 } });
  });

  it(`reads at most ${MAX_REPOSITORY_POMS} repository POMs for one reading, and says so past them`, async () => {
    const boms = Array.from({ length: MAX_REPOSITORY_POMS + 1 }, (_, index) => `b${index}`);
    const files: Record<string, string> = {
      'tree/pom.xml': pom('g:app', `${managed(...boms.map((name) => bom('r', name)))}${USES}`),
    };
    for (const [index, name] of boms.entries()) {
      files[at(`r:${name}`)] = pom(`r:${name}`, index === boms.length - 1 ? managed(d('3')) : '');
    }
    await write(files);
    const version = versionOfD(await read());
    expect(version?.spec).toBeUndefined();
    expect(version?.unknown).toContain(
      `r:b${MAX_REPOSITORY_POMS}:1, which is not a POM in the tree (was not read: ${MAX_REPOSITORY_POMS} POMs of the local repository m2 were read`,
    );
  });

  it('answers from the cache until a repository POM it missed appears, or one it read changes', async () => {
    const later = () => Date.now() + 10_000;
    await write({
      'tree/pom.xml': pom('g:app', `${managed(bom('r', 'first'), bom('r', 'bom'))}${USES}`),
      [at('r:bom')]: pom('r:bom', managed(d('1.0'))),
    });
    // r:first is missing (no r/first/), and Maven reads it first: no answer.
    const missing = await read(true, later);
    expect(versionOfD(missing)?.unknown).toContain('r:first:1, which is not a POM in the tree');
    expect(await read(true, later)).toBe(missing);
    await write({ [at('r:first')]: pom('r:first', '') });
    const appeared = await read(true, later);
    expect(versionOfD(appeared)?.spec).toBe('1.0');
    expect(await read(true, later)).toBe(appeared);
    // Not the same size: the change is seen whatever the clock's resolution.
    await writeFile(path.join(root, at('r:bom')), pom('r:bom', managed(d('10.0'))));
    expect(versionOfD(await read(true, later))?.spec).toBe('10.0');
  });

  it('reads a refused repository POM again once it changes in place (its own identity kept, not only its folder)', async () => {
    const later = () => Date.now() + 10_000;
    const small = pom('r:bom', managed(d('4.2')));
    await write({
      'tree/pom.xml': pom('g:app', `${managed(bom('r', 'bom'))}${USES}`),
      [at('r:bom')]: small.replace(
        '</project>',
        `<!-- ${'x'.repeat(MAX_REPOSITORY_POM_BYTES)} --></project>`,
      ),
    });
    const refused = await read(true, later);
    expect(versionOfD(refused)?.unknown).toContain('is larger than');
    expect(await read(true, later)).toBe(refused);
    // Rewritten in place: the folder r/bom/1/ keeps its times, the file does not.
    await writeFile(path.join(root, at('r:bom')), small);
    expect(versionOfD(await read(true, later))?.spec).toBe('4.2');
  });

  it(`follows a chain of repository POMs at most ${MAX_REPOSITORY_ROUNDS} rounds of reading deep, and says so past them`, async () => {
    // Three repository BOMs, each with a chain of 30 repository parents whose last imports the next BOM: one
    // round of reading per link (93), under the parent and BOM depth caps.
    const files: Record<string, string> = {
      'tree/pom.xml': pom('g:app', `${managed(bom('r', 'c0'))}${USES}`),
    };
    for (let index = 0; index < 3; index += 1) {
      files[at(`r:c${index}`)] = pom(`r:c${index}`, parent('r', `p${index}-0`));
      for (let depth = 0; depth < 30; depth += 1) {
        const last = depth === 29;
        files[at(`r:p${index}-${depth}`)] = pom(
          `r:p${index}-${depth}`,
          last
            ? managed(index === 2 ? d('5') : bom('r', `c${index + 1}`))
            : parent('r', `p${index}-${depth + 1}`),
        );
      }
    }
    await write(files);
    const version = versionOfD(await read());
    expect(version?.spec).toBeUndefined();
    expect(version?.unknown).toContain(`followed ${MAX_REPOSITORY_ROUNDS} parents and imports deep`);
  });
});
