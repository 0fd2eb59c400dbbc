// adopt_repo's defaults, in a module of their own so the MCP adapter can show them without loading the pipeline.

export const DEFAULT_BRANCH_NAME = 'agents/adopt-conventions';
export const DEFAULT_WORKSPACE = '.groundwork-adopt';
export const DEFAULT_PULL_REQUEST_TITLE = 'Adopt AI-agent conventions (AGENTS.md, CLAUDE.md, build guard)';
export const DEFAULT_PULL_REQUEST_BODY =
  'This pull request prepares the repository for coding agents:\n\n' +
  '- `AGENTS.md` and `CLAUDE.md` describe the layout, build and test commands and conventions detected in the repository.\n' +
  '- A guard in the build fails when those files go missing or break.\n\n' +
  'Prepared by groundwork-adopt; `npx -y @groundwork/adopt verify` checks the conventions locally.';
