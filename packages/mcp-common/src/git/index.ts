// @groundwork/mcp-common/git — the one way groundwork servers run git on a repository they did not write.
export {
  GIT_HARDENING,
  type GitCallOptions,
  GitCommandError,
  type GitOutput,
  GitRepository,
  GitUnavailableError,
  isSafeRevision,
  type OpenGitOptions,
  openGitRepository,
} from './hardenedGit.js';
export { defaultBranch, mergeBaseWithDefaultBranch, resolveCommit } from './revisions.js';
