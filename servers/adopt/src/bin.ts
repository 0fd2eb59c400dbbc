#!/usr/bin/env node
// `groundwork-adopt verify …` and `groundwork-adopt doctor …` are the command lines; anything else starts the MCP server.
import packageJson from '../package.json' with { type: 'json' };

const argv = process.argv.slice(2);
if (argv[0] === 'verify') {
  const { runVerifyCommand } = await import('./cli/verifyCommand.js');
  process.exitCode = await runVerifyCommand(argv.slice(1), packageJson.version);
} else if (argv[0] === 'doctor') {
  const { runDoctorCommand } = await import('./cli/doctorCommand.js');
  process.exitCode = await runDoctorCommand(argv.slice(1), packageJson.version);
} else {
  const [{ runServer }, { adoptTools }, { adoptPrompts }] = await Promise.all([
    import('@groundwork/mcp-common'),
    import('./mcp/tools.js'),
    import('./mcp/prompts.js'),
  ]);
  await runServer(
    {
      name: 'groundwork-adopt',
      version: packageJson.version,
      tools: adoptTools,
      defaultPort: 3104,
      instructions:
        'Use verify_repo to check whether a repository is ready for coding agents (CLAUDE.md, AGENTS.md, skills, settings, hooks, ' +
        '.mcp.json) and what to fix; use doctor to see the effective Claude Code settings, permission rules and hooks that never apply, and ' +
        '.mcp.json servers that cannot start; use adopt_repo to prepare those files on a branch, wire a guard into the build, and open a pull request.',
      usageFile: new URL('../MCP_USAGE.md', import.meta.url),
      prompts: adoptPrompts,
      skillsDir: new URL('../skills/', import.meta.url),
    },
    argv,
  );
}
