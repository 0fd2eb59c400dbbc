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

  it('reads values as XML defines them: references, CDATA and comments inside a value; lines of multi-line tags', async () => {
    const pom = await parsePom(
      'pom.xml',
      '\uFEFF<?xml version="1.0"?>\n<project\n    xmlns="http://maven.apache.org/POM/4.0.0">\n  <groupId>a&amp;b&#46;c</groupId>\n  <artifactId><![CDATA[art]]>i<!-- no -->fact</artifactId>\n  <properties><p>  1 </p><p>2</p><empty/></properties>\n  <modules>\n    <module\n      >m</module>\n  </modules>\n</project>\n',
    );
    expect(pom).toMatchObject({ groupId: 'a&b.c', artifactId: 'artifact', packaging: 'jar' });
    // The first of a property written twice; an empty one is the empty string.
    expect(pom.properties.get('p')).toEqual({ value: '1', at: { file: 'pom.xml', line: 6 } });
    expect(pom.properties.get('empty')?.value).toBe('');
    expect([...pom.properties.keys()]).toEqual(['p', 'empty']);
    expect(pom.modules).toEqual([{ path: 'm', at: { file: 'pom.xml', line: 8 } }]);
  });

  it('refuses what is not well-formed XML, with the line (Maven refuses such a POM too)', async () => {
    await expect(
      parsePom('pom.xml', '<project>\n  <groupId>g</artifactId>\n</project>'),
    ).rejects.toMatchObject({
      message: 'unexpected close tag.',
      line: 2,
    });
    await expect(parsePom('pom.xml', '<project>&nbsp;</project>')).rejects.toThrow('undefined entity');
    await expect(parsePom('pom.xml', '<parent/>')).rejects.toThrow('no <project> element');
  });
});
