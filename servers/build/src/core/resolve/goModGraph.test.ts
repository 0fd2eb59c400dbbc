import { describe, expect, it } from 'vitest';
import { compareVersions, readGoModGraph } from './goModGraph.js';

describe('readGoModGraph', () => {
  it('orders versions as Go does: pre-releases and pseudo-versions below their release', () => {
    const sorted = [
      'v1.10.0',
      'v1.2.0',
      'v1.2.0-rc.1',
      'v1.2.0-0.20200101000000-abcdefabcdef',
      'v1.2.0-rc.10',
      'v1.2.0-rc.2',
      'v0.9.9',
      'v2.0.0+incompatible',
    ].sort(compareVersions);
    expect(sorted).toEqual([
      'v0.9.9',
      'v1.2.0-0.20200101000000-abcdefabcdef',
      'v1.2.0-rc.1',
      'v1.2.0-rc.2',
      'v1.2.0-rc.10',
      'v1.2.0',
      'v1.10.0',
      'v2.0.0+incompatible',
    ]);
  });

  it('counts the requirements of versions not selected, and follows only the selected ones', () => {
    const [graph] = readGoModGraph(
      'm a@v1.0.0\nm b@v1.0.0\nb@v1.0.0 a@v1.1.0\na@v1.0.0 c@v1.5.0\na@v1.1.0 c@v1.2.0\n',
    );
    expect(graph?.components.get('a')?.version).toBe('v1.1.0');
    // a@v1.0.0 is not in the build, but its requirement still lifts c to v1.5.0.
    expect(graph?.components.get('c')?.version).toBe('v1.5.0');
    expect(graph?.edges.map((edge) => `${edge.from}>${edge.to}@${edge.requested}`)).toEqual([
      'm>a@v1.0.0',
      'm>b@v1.0.0',
      'b>a@v1.1.0',
      'a>c@v1.2.0',
    ]);
  });
});
