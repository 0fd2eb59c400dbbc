// What `mvn dependency:tree -DoutputType=tgf` printed, read back: the oracle the Maven differential tests compare with.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Maven's log of `dependency:tree -DoutputType=tgf` over the reactor at `cwd`, offline, with its settings.xml. */
export async function dependencyTreeLog(cwd: string): Promise<string> {
  const { stdout } = await run(
    'mvn',
    ['-o', '-B', '-Dstyle.color=never', '-s', 'settings.xml', 'dependency:tree', '-DoutputType=tgf'],
    { cwd, maxBuffer: 16 << 20 },
  );
  return stdout;
}

interface TgfDependency {
  module: string;
  coordinates: string;
  version: string;
  scope: string;
}

/**
 * Each module's direct dependencies from a Maven log of `dependency:tree -DoutputType=tgf` runs: per module a
 * block of `id g:a:type:version[:scope]` nodes, `#`, then `from to scope` edges; the first node is the module
 * itself, so its edges are the direct dependencies.
 */
export function directDependencies(log: string): TgfDependency[] {
  const direct: TgfDependency[] = [];
  for (const block of log.split(/--- maven-dependency-plugin:[^\n]+---\n/).slice(1)) {
    const lines = block.split('\n').map((line) => line.replace(/^\[INFO\] /, ''));
    const end = lines.indexOf('#');
    const nodes = new Map(
      lines.slice(0, end).map((line) => {
        const [id, gav] = line.split(' ');
        const [group, artifact, , version] = (gav as string).split(':');
        return [id as string, { coordinates: `${group}:${artifact}`, version: version as string }];
      }),
    );
    const self = nodes.get((lines[0] as string).split(' ')[0] as string);
    for (const line of lines.slice(end + 1)) {
      const edge = /^(\S+) (\S+) (\S+)$/.exec(line);
      if (edge === null) break;
      const to = nodes.get(edge[2] as string);
      if (self !== undefined && to !== undefined && nodes.get(edge[1] as string) === self)
        direct.push({ module: self.coordinates, ...to, scope: edge[3] as string });
    }
  }
  return direct;
}
