// Wires the agent-docs check into the repository's own build, so it fails when the files go missing or
// break: a package.json script its test command runs, a Maven plugin execution, a Gradle task `check`
// depends on, or else a CI workflow.
import type { CheckoutFiles } from '../files/checkoutFiles.js';
import { type ProjectProfile, parseJsonObject } from './detectProject.js';
import { GUARD_SCRIPT, GUARD_SCRIPT_PATH } from './guardScript.js';
import { addPomExecution, addPomPlugin, pomHasPlugin } from './pomEditor.js';

const GUARD_NAME = 'check-agent-docs';
const NODE_SCRIPT = 'check:agent-docs';
const GRADLE_TASK = 'checkAgentDocs';
const WORKFLOW_PATH = '.github/workflows/agent-docs.yml';

export interface GuardResult {
  /** Repository-relative files written or changed. */
  changed: string[];
  /** How the guard is wired, for the report. */
  wiring: string;
  /** The command that runs the guard the way the build does (only with run_repository_code). */
  run: { command: string; args: string[] };
}

const MAVEN_EXECUTION = `<execution>
  <!-- Written by groundwork-adopt: fails the build when AGENTS.md/CLAUDE.md go missing or break. -->
  <id>${GUARD_NAME}</id>
  <phase>validate</phase>
  <goals>
    <goal>exec</goal>
  </goals>
  <inherited>false</inherited>
  <configuration>
    <executable>sh</executable>
    <arguments>
      <argument>\${maven.multiModuleProjectDirectory}/${GUARD_SCRIPT_PATH}</argument>
    </arguments>
  </configuration>
</execution>`;

const MAVEN_PLUGIN = `<plugin>
  <groupId>org.codehaus.mojo</groupId>
  <artifactId>exec-maven-plugin</artifactId>
  <version>3.5.0</version>
  <executions>
${MAVEN_EXECUTION.split('\n')
  .map((line) => `    ${line}`)
  .join('\n')}
  </executions>
</plugin>`;

const GRADLE_GROOVY = `
// Written by groundwork-adopt: \`check\` fails when AGENTS.md/CLAUDE.md go missing or break.
tasks.register('${GRADLE_TASK}', Exec) {
    group = 'verification'
    description = 'Checks the instructions for coding agents (AGENTS.md, CLAUDE.md, .claude/).'
    commandLine 'sh', "\${rootDir}/${GUARD_SCRIPT_PATH}"
}
tasks.matching { it.name == 'check' }.configureEach { dependsOn '${GRADLE_TASK}' }
`;

const GRADLE_KOTLIN = `
// Written by groundwork-adopt: \`check\` fails when AGENTS.md/CLAUDE.md go missing or break.
tasks.register<Exec>("${GRADLE_TASK}") {
    group = "verification"
    description = "Checks the instructions for coding agents (AGENTS.md, CLAUDE.md, .claude/)."
    commandLine("sh", "\${rootDir}/${GUARD_SCRIPT_PATH}")
}
tasks.matching { it.name == "check" }.configureEach { dependsOn("${GRADLE_TASK}") }
`;

const WORKFLOW = `# Written by groundwork-adopt: fails when AGENTS.md/CLAUDE.md go missing or break.
name: Agent docs
on:
  push:
  pull_request:
jobs:
  ${GUARD_NAME}:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: sh ${GUARD_SCRIPT_PATH}
`;

export async function installGuard(files: CheckoutFiles, profile: ProjectProfile): Promise<GuardResult> {
  const changed: string[] = [];
  const write = async (relative: string, content: string, mode = 0o644) => {
    const before = await files.read(relative);
    if (before === content) {
      // Content right but mode lost (e.g. committed without +x) still needs fixing.
      if ((((await files.info(relative))?.mode ?? 0) & 0o777) === mode) return;
    }
    await files.write(relative, content, mode);
    changed.push(relative);
  };
  await write(GUARD_SCRIPT_PATH, GUARD_SCRIPT, 0o755);
  const shell = { command: 'sh', args: [GUARD_SCRIPT_PATH] };
  switch (profile.buildTool) {
    case 'npm':
    case 'pnpm':
    case 'yarn':
    case 'bun': {
      const manager = profile.buildTool;
      await write('package.json', await wirePackageJson(files, manager));
      return {
        changed,
        wiring: `package.json script '${NODE_SCRIPT}', run by the test script`,
        run: { command: manager, args: ['run', NODE_SCRIPT] },
      };
    }
    case 'maven': {
      const pom = (await files.read('pom.xml')) ?? '';
      if (!pomHasPlugin(pom, GUARD_NAME)) {
        await write(
          'pom.xml',
          addPomExecution(pom, 'exec-maven-plugin', MAVEN_EXECUTION) ?? addPomPlugin(pom, MAVEN_PLUGIN),
        );
      }
      return {
        changed,
        wiring: `exec-maven-plugin execution '${GUARD_NAME}' in build/plugins (phase validate)`,
        run: shell,
      };
    }
    case 'gradle': {
      const kotlin = await files.read('build.gradle.kts');
      const file = kotlin !== undefined ? 'build.gradle.kts' : 'build.gradle';
      const current = kotlin ?? (await files.read('build.gradle')) ?? '';
      if (!current.includes(GRADLE_TASK))
        await write(
          file,
          `${current}${current === '' || current.endsWith('\n') ? '' : '\n'}${kotlin !== undefined ? GRADLE_KOTLIN : GRADLE_GROOVY}`,
        );
      return {
        changed,
        wiring: `Gradle task '${GRADLE_TASK}' that 'check' depends on (${file})`,
        run: shell,
      };
    }
    default:
      await write(WORKFLOW_PATH, WORKFLOW);
      return { changed, wiring: `CI workflow ${WORKFLOW_PATH}`, run: shell };
  }
}

async function wirePackageJson(files: CheckoutFiles, manager: string): Promise<string> {
  const text = (await files.read('package.json')) ?? '';
  const pkg = parseJsonObject('package.json', text) as { scripts?: Record<string, string> };
  const scripts = { ...(pkg.scripts ?? {}) };
  scripts[NODE_SCRIPT] = `sh ${GUARD_SCRIPT_PATH}`;
  const runGuard = `${manager} run ${NODE_SCRIPT}`;
  const test = scripts.test;
  if (test === undefined || /no test specified/.test(test)) scripts.test = runGuard;
  else if (!test.includes(NODE_SCRIPT)) scripts.test = `${runGuard} && ${test}`;
  const indent = /^[ \t]+(?=")/m.exec(text)?.[0] ?? '  ';
  return `${JSON.stringify({ ...pkg, scripts }, null, indent)}\n`;
}
