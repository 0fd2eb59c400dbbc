// What reading the local Maven repository costs, in process, side by side in one run: a 200-module reactor whose
// root's parent lives in a generated local repository (a Spring-Boot-like chain: a starter parent, a
// dependencies parent managing 300 artifacts and importing 40 BOMs of 50 entries each), every module declaring
// 10 versionless dependencies. Measured: the first reading without the repository (the answers unknown), the
// first reading with it, and a repeated call with it — cached, re-checking the identities of the repository POMs
// it read — against what not caching such answers would cost (a first reading every time). CPU time of this
// process per call, median of RUNS.
//   nice -n -10 npx tsx bench/mavenRepository.ts
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { ConfinedDirectory } from '@groundwork/mcp-common/files';
import { DEFAULT_TREE_LIMITS } from '../src/core/workspace/buildTree.js';
import { readWorkspace } from '../src/core/workspace/readWorkspace.js';

const MODULES = 200;
const BOMS = 40;
const RUNS = 7;

async function write(root: string, file: string, text: string): Promise<void> {
  await mkdir(path.dirname(path.join(root, file)), { recursive: true });
  await writeFile(path.join(root, file), text);
}
const entry = (group: string, artifact: string, version: string, more = '') =>
  `<dependency><groupId>${group}</groupId><artifactId>${artifact}</artifactId><version>${version}</version>${more}</dependency>`;
const managed = (entries: string[]) =>
  `<dependencyManagement><dependencies>\n${entries.join('\n')}\n</dependencies></dependencyManagement>`;
const project = (group: string, artifact: string, body: string) =>
  `<project><modelVersion>4.0.0</modelVersion><groupId>${group}</groupId><artifactId>${artifact}</artifactId><version>1</version>\n${body}\n</project>\n`;

async function generate(root: string): Promise<void> {
  const m2 = path.join(root, 'm2');
  await write(
    m2,
    'rp/starter/1/starter-1.pom',
    project(
      'rp',
      'starter',
      '<parent><groupId>rp</groupId><artifactId>deps</artifactId><version>1</version></parent>',
    ),
  );
  const own = Array.from({ length: 300 }, (_, index) => entry('lib', `own-${index}`, `1.${index}`));
  const imports = Array.from({ length: BOMS }, (_, bom) =>
    entry('rp', `bom-${bom}`, '1', '<type>pom</type><scope>import</scope>'),
  );
  await write(m2, 'rp/deps/1/deps-1.pom', project('rp', 'deps', managed([...own, ...imports])));
  for (let bom = 0; bom < BOMS; bom++) {
    const entries = Array.from({ length: 50 }, (_, index) => entry('lib', `b${bom}-${index}`, `2.${index}`));
    await write(m2, `rp/bom-${bom}/1/bom-${bom}-1.pom`, project('rp', `bom-${bom}`, managed(entries)));
  }
  const modules = Array.from({ length: MODULES }, (_, index) => `m${index}`);
  await write(
    root,
    'tree/pom.xml',
    project(
      'tree',
      'root',
      `<parent><groupId>rp</groupId><artifactId>starter</artifactId><version>1</version><relativePath/></parent><packaging>pom</packaging><modules>${modules.map((m) => `<module>${m}</module>`).join('')}</modules>`,
    ),
  );
  for (const [index, name] of modules.entries()) {
    const uses = Array.from({ length: 10 }, (_, k) =>
      k % 2 === 0
        ? `<dependency><groupId>lib</groupId><artifactId>own-${(index + k) % 300}</artifactId></dependency>`
        : `<dependency><groupId>lib</groupId><artifactId>b${(index + k) % BOMS}-${k}</artifactId></dependency>`,
    );
    await write(
      root,
      `tree/${name}/pom.xml`,
      project(
        'tree',
        name,
        `<parent><groupId>tree</groupId><artifactId>root</artifactId><version>1</version></parent><dependencies>${uses.join('')}</dependencies>`,
      ),
    );
  }
}

function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

const root = await mkdtemp(path.join(tmpdir(), 'bench-m2-'));
try {
  await generate(root);
  await using tree = await ConfinedDirectory.confinedTo(path.join(root, 'tree'));
  await using m2 = await ConfinedDirectory.confinedTo(path.join(root, 'm2'));
  const later = () => Date.now() + 10_000;
  let fresh = 0;
  // A first reading: a key the cache has not seen (the limits are part of it).
  const first = async (repository: boolean) => {
    const limits = { ...DEFAULT_TREE_LIMITS, maxFolders: DEFAULT_TREE_LIMITS.maxFolders + ++fresh };
    const start = process.cpuUsage();
    const workspace = await readWorkspace(tree, 'tree', {
      limits,
      now: later,
      ...(repository ? { mavenRepository: { directory: m2, shown: 'm2' } } : {}),
    });
    return { ms: cpuMs(start), workspace };
  };
  const known = (workspace: Awaited<ReturnType<typeof readWorkspace>>) =>
    workspace.systems.flatMap((s) => s.dependencies).filter((d) => d.version.spec !== undefined).length;
  const without: number[] = [];
  const withRepository: number[] = [];
  const warm: number[] = [];
  let answered = '';
  for (let run = 0; run < RUNS; run++) {
    const plain = await first(false);
    without.push(plain.ms);
    const read = await first(true);
    withRepository.push(read.ms);
    answered = `${known(plain.workspace)} → ${known(read.workspace)} of ${MODULES * 10} versions known`;
    const options = {
      limits: { ...DEFAULT_TREE_LIMITS, maxFolders: DEFAULT_TREE_LIMITS.maxFolders + fresh },
      now: later,
      mavenRepository: { directory: m2, shown: 'm2' },
    };
    const start = process.cpuUsage();
    const again = await readWorkspace(tree, 'tree', options);
    warm.push(cpuMs(start));
    if (again !== read.workspace) throw new Error('the repeated call was not answered from the cache');
  }
  const load = loadavg().map((value) => value.toFixed(2));
  console.log(`${new Date().toISOString()} load ${load.join(' ')}; ${answered}`);
  console.log(
    `first reading without the repository ${median(without).toFixed(1)} ms CPU; with it ${median(withRepository).toFixed(1)} ms (${BOMS + 2} repository POMs); repeated call, cached ${median(warm).toFixed(2)} ms (not caching: ${median(withRepository).toFixed(1)} ms)`,
  );
} finally {
  await rm(root, { recursive: true, force: true });
}
