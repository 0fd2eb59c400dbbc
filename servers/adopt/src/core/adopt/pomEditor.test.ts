import { describe, expect, it } from 'vitest';
import { addPomExecution, addPomPlugin, PomStructureError, pomHasPlugin } from './pomEditor.js';

const PLUGIN = '<plugin>\n  <artifactId>guard-plugin</artifactId>\n</plugin>';

const WITH_MANAGEMENT = `<project>
  <build>
    <pluginManagement>
      <plugins>
        <plugin><artifactId>managed</artifactId></plugin>
      </plugins>
    </pluginManagement>
    <plugins>
      <plugin><artifactId>compiler</artifactId></plugin>
    </plugins>
  </build>
  <profiles><profile><build><plugins></plugins></build></profile></profiles>
</project>
`;

describe('addPomPlugin', () => {
  it('adds the plugin to build/plugins, not to pluginManagement or a profile', () => {
    const pom = addPomPlugin(WITH_MANAGEMENT, PLUGIN);
    expect(pomHasPlugin(pom, 'guard-plugin')).toBe(true);
    const management = pom.slice(pom.indexOf('<pluginManagement>'), pom.indexOf('</pluginManagement>'));
    expect(management).not.toContain('guard-plugin');
    expect(pom.indexOf('guard-plugin')).toBeGreaterThan(pom.indexOf('compiler'));
    expect(pom.indexOf('guard-plugin')).toBeLessThan(pom.indexOf('<profiles>'));
  });

  it('creates build and plugins when the POM has none', () => {
    const pom = addPomPlugin('<project>\n  <modelVersion>4.0.0</modelVersion>\n</project>\n', PLUGIN);
    expect(pomHasPlugin(pom, 'guard-plugin')).toBe(true);
    expect(pom).toMatch(/<build>\s*<plugins>\s*<plugin>/);
  });

  it('leaves comments and the rest of the file as they were', () => {
    const original =
      '<?xml version="1.0"?>\n<!-- <build> in a comment -->\n<project>\n  <build>\n  </build>\n</project>\n';
    const pom = addPomPlugin(original, PLUGIN);
    expect(
      pom.startsWith('<?xml version="1.0"?>\n<!-- <build> in a comment -->\n<project>\n  <build>\n'),
    ).toBe(true);
    expect(pomHasPlugin(pom, 'guard-plugin')).toBe(true);
  });

  it('refuses a POM that is not well-formed', () => {
    expect(() => addPomPlugin('<project><build></project>', PLUGIN)).toThrow(PomStructureError);
  });
});

describe('addPomExecution', () => {
  const EXECUTION = '<execution>\n  <id>guard</id>\n</execution>';
  const withExec = (executions: string) => `<project>
  <build>
    <plugins>
      <plugin>
        <groupId>org.codehaus.mojo</groupId>
        <artifactId>exec-maven-plugin</artifactId>
        <dependencies><dependency><artifactId>other</artifactId></dependency></dependencies>${executions}
      </plugin>
    </plugins>
  </build>
</project>
`;

  it('adds the execution to the plugin already declared, instead of declaring it twice', () => {
    const pom =
      addPomExecution(
        withExec(
          '\n        <executions>\n          <execution><id>existing</id></execution>\n        </executions>',
        ),
        'exec-maven-plugin',
        EXECUTION,
      ) ?? '';
    expect(pom.match(/<artifactId>exec-maven-plugin<\/artifactId>/g)).toHaveLength(1);
    expect(pom.match(/<executions>/g)).toHaveLength(1);
    expect(pom.indexOf('<id>guard</id>')).toBeGreaterThan(pom.indexOf('<id>existing</id>'));
  });

  it('creates the executions element when the plugin has none', () => {
    const pom = addPomExecution(withExec(''), 'exec-maven-plugin', EXECUTION) ?? '';
    expect(pom).toMatch(
      /<executions>\s*<execution>\s*<id>guard<\/id>\s*<\/execution>\s*<\/executions>\s*<\/plugin>/,
    );
  });

  it('answers undefined when build/plugins lacks the plugin (one in pluginManagement does not count)', () => {
    expect(addPomExecution(WITH_MANAGEMENT, 'managed', EXECUTION)).toBeUndefined();
  });
});
