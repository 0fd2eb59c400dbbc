import { describe, expect, it } from 'vitest';
import { parsePom } from './mavenReactor.js';

const REFERENCE = '$' + '{x.version}';

describe('parsePom', () => {
  it('keeps every value as text, with the line of each element', async () => {
    const pom = await parsePom(
      'pom.xml',
      '<project>\n  <groupId>g</groupId>\n  <artifactId>a</artifactId>\n  <version>1.10</version>\n  <properties>\n    <x.version>2.0</x.version>\n  </properties>\n  <dependencies>\n    <dependency>\n      <groupId>d</groupId>\n      <artifactId>e</artifactId>\n      <version>' +
        REFERENCE +
        '</version>\n    </dependency>\n  </dependencies>\n</project>\n',
    );
    expect(pom).toMatchObject({ groupId: 'g', artifactId: 'a', version: '1.10' });
    expect(pom.properties.get('x.version')).toEqual({ value: '2.0', at: { file: 'pom.xml', line: 6 } });
    expect(pom.dependencies).toEqual([
      expect.objectContaining({
        groupId: 'd',
        artifactId: 'e',
        version: REFERENCE,
        at: { file: 'pom.xml', line: 9 },
        versionAt: { file: 'pom.xml', line: 12 },
      }),
    ]);
  });
});
