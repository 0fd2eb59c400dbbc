#!/usr/bin/env node
// `groundwork-build health …` is the CI command line; anything else starts the MCP server.
import packageJson from '../package.json' with { type: 'json' };

const argv = process.argv.slice(2);
if (argv[0] === 'health') {
  const { runHealthCommand } = await import('./cli/healthCommand.js');
  process.exitCode = await runHealthCommand(argv.slice(1), packageJson.version);
} else {
  const [{ runServer }, { buildTools }, { buildPrompts }, { buildSwitches }] = await Promise.all([
    import('@groundwork/mcp-common'),
    import('./mcp/tools.js'),
    import('./mcp/prompts.js'),
    import('./mcp/buildExecution.js'),
  ]);
  await runServer(
    {
      name: 'groundwork-build',
      version: packageJson.version,
      tools: buildTools,
      defaultPort: 3105,
      instructions:
        'Ground truth about the build (Gradle, Maven, npm/pnpm/yarn, Go, Cargo), read statically without running anything: build_workspace for the modules, their edges and the pinned tool versions; build_dependencies for what each module declares and where each version comes from (file:line to edit); build_why for why a module has a dependency; build_health for build-configuration findings. Only when the operator allowed build execution: build_run runs tasks and answers each outcome and failure (build_log pages its log), build_cache_explain says why a Gradle task was not UP-TO-DATE or FROM-CACHE, and resolve: true asks the build tool for the resolved graph. Use instead of pasting `gradle dependencies` or reading every build file by hand.',
      usageFile: new URL('../MCP_USAGE.md', import.meta.url),
      prompts: buildPrompts,
      skillsDir: new URL('../skills/', import.meta.url),
      switches: buildSwitches,
    },
    argv,
  );
}
