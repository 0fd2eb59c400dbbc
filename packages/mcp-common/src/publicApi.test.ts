import { describe, expect, it } from 'vitest';
import * as childProcess from './childProcess.js';
import * as cli from './cli/reportCommand.js';
import * as domainError from './domainError.js';
import * as files from './files/index.js';
import * as git from './git/index.js';
import * as publicApi from './index.js';
import * as masking from './masking/masking.js';
import * as sarif from './sarif.js';
import * as treeSitter from './treeSitter/grammarLoader.js';

// The public surface only grows on purpose: a new export must be added here, in review.
describe('@groundwork/mcp-common public API', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(publicApi).sort()).toEqual([
      'AllowedPaths',
      'CancelledError',
      'DEFAULT_ANSWER_TOKENS',
      'DomainError',
      'InvalidArgumentError',
      'MAX_COMPLETION_VALUES',
      'MemoryBudget',
      'ToolError',
      'ToolResult',
      'answerBudget',
      'answerFits',
      'completeFrom',
      'completeListItem',
      'completePath',
      'countTokens',
      'cursorKey',
      'decodeCursor',
      'definePrompt',
      'defineTool',
      'encodeCursor',
      'fitList',
      'maxTokensArgument',
      'optionalBoolean',
      'optionalBoundedInt',
      'optionalInt',
      'optionalString',
      'pagingArguments',
      'pagingOutput',
      'pathArg',
      'phasedProgress',
      'requiredInt',
      'requiredString',
      'runServer',
      'stringList',
      'throwIfAborted',
    ]);
  });

  it('keeps the masking subpath free of anything but masking', () => {
    expect(Object.keys(masking).sort()).toEqual([
      'SECRET_PATTERNS',
      'findSecrets',
      'maskAbsolutePaths',
      'maskForClient',
      'maskSecrets',
      'maskValue',
    ]);
  });

  it('keeps the domainError subpath to the domain error, cancellation and its check', () => {
    expect(Object.keys(domainError).sort()).toEqual(['CancelledError', 'DomainError', 'throwIfAborted']);
  });

  it('keeps the childProcess subpath to the runner and its errors', () => {
    expect(Object.keys(childProcess).sort()).toEqual([
      'ChildCancelledError',
      'ChildMissingError',
      'ChildTimeoutError',
      'MAX_LINE_CHARS',
      'SAFE_ENV_NAMES',
      'findExecutable',
      'isAvailable',
      'removeIfServerDies',
      'runChild',
      'scrubbedEnv',
    ]);
  });

  it('keeps the sarif subpath to the log builder', () => {
    expect(Object.keys(sarif).sort()).toEqual(['SARIF_SCHEMA', 'relativeUri', 'toSarifLog']);
  });

  it('keeps the files subpath to handles, their refusals and the path limits', () => {
    expect(Object.keys(files).sort()).toEqual([
      'ConfinedDirectory',
      'ConfinedFile',
      'FileTooLargeError',
      'InvalidPathError',
      'PATH_LIMITS',
      'PathAccessError',
      'PathNotFoundError',
      'PathOutsideAllowedError',
      'WrongFileKindError',
    ]);
  });

  it('keeps the git subpath to the hardened runner, its errors and revision naming', () => {
    expect(Object.keys(git).sort()).toEqual([
      'GIT_HARDENING',
      'GitCommandError',
      'GitRepository',
      'GitUnavailableError',
      'defaultBranch',
      'isSafeRevision',
      'mergeBaseWithDefaultBranch',
      'openGitRepository',
      'resolveCommit',
    ]);
  });

  it('keeps the treeSitter subpath to the grammar loader', () => {
    expect(Object.keys(treeSitter)).toEqual(['grammarLoader']);
  });

  it('keeps the cli subpath to the report command runner', () => {
    expect(Object.keys(cli)).toEqual(['runReportCommand']);
  });
});
