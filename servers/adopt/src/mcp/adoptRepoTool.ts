// adopt_repo over MCP: checks where it may write, hands the targets to the core pipeline, and turns the
// reports into one result (an error result when any repository failed).
import {
  defineTool,
  InvalidArgumentError,
  optionalBoolean,
  optionalBoundedInt,
  optionalString,
  pathArg,
  stringList,
  ToolResult,
} from '@groundwork/mcp-common';
import { z } from 'zod';
import {
  DEFAULT_BRANCH_NAME,
  DEFAULT_PULL_REQUEST_BODY,
  DEFAULT_PULL_REQUEST_TITLE,
  DEFAULT_WORKSPACE,
} from '../core/adopt/adoptDefaults.js';
import { AGENT_NAMES } from '../core/adopt/agentPointers.js';
import { agentsArgument, parseAgents } from './agentArgument.js';

// One name or several, as an array or a comma-separated string (models send both).
const names = (description: string) => stringList(description).optional();

const report = z.object({
  repository_url: z.string(),
  branch: z.string(),
  checkout: z.string().optional(),
  pull_request_url: z.string().optional(),
  succeeded: z.boolean(),
  failure: z.object({ step: z.string(), message: z.string() }).optional(),
  completed_steps: z.array(z.string()),
  notes: z.array(z.string()),
});

export const adoptRepoTool = defineTool({
  definition: {
    name: 'adopt_repo',
    title: 'Adopt AI-agent conventions',
    description:
      'Prepares repositories for coding agents on a branch and opens a pull request: writes or completes AGENTS.md and CLAUDE.md from the ' +
      'detected build (accurate commands and layout), wires a guard into the build (package.json test script, Maven plugin, Gradle check, or CI ' +
      'workflow), writes the files of the agents named in `agents` (Cursor rule, Copilot instructions, GEMINI.md) leading to the one AGENTS.md, optionally adds .mcp.json/settings/hooks, checks the result with verify_repo and the guard, pushes the branch (never the default branch, never ' +
      'forced) and opens or reuses the pull request with gh. Give repository_url(s) to clone, or path for a local checkout. dry_run stops after ' +
      'verify. Runs no code from the repository unless run_repository_code is true. Slow (clones and pushes; minutes). Each repository gets ' +
      'its own report; the call is an error when any failed.',
    input: z.object({
      repository_url: optionalString(
        'A repository to clone: https://, ssh:// or git@host:owner/repo (file:// or a path only under the allowed directories). A token in ' +
          'it is handed to git and gh through a private channel: never in a command line, stored or shown.',
      ),
      repository_urls: names('Several repositories, adopted one after the other, each in its own checkout.'),
      path: pathArg('A local git checkout to adopt in place (instead of repository_url).').optional(),
      workspace: pathArg(`Where clones are made (default '${DEFAULT_WORKSPACE}').`).optional(),
      branch: z
        .string()
        .min(1)
        .default(DEFAULT_BRANCH_NAME)
        .describe(
          "The branch to commit to and push: 'name' or 'refs/heads/name', never the default branch, and never a remote branch adopt_repo did not create.",
        ),
      title: optionalString('Pull request title.'),
      body: optionalString('Pull request body (Markdown).'),
      reviewers: names('GitHub logins or org/team names to request reviews from.'),
      labels: names('Labels for the pull request.'),
      assignees: names('GitHub logins to assign.'),
      draft: optionalBoolean(false, 'Open the pull request as a draft.'),
      assets: optionalBoolean(
        false,
        'Also add .mcp.json (groundwork servers), .claude/settings.json and a session-start hook.',
      ),
      agents: agentsArgument(
        `Agents to write files for, each leading to the one AGENTS.md: ${AGENT_NAMES.join(', ')}. claude: CLAUDE.md importing ` +
          'it (always written); cursor: .cursor/rules/agents.mdc (alwaysApply); copilot: .github/copilot-instructions.md; gemini: ' +
          'GEMINI.md importing it (an existing GEMINI.md is completed whatever is named); codex reads AGENTS.md itself. Existing ' +
          'files are completed (a pointer line appended) or left as they are, never overwritten; the notes say which.',
      ),
      dry_run: optionalBoolean(
        false,
        'Stop after verify: nothing is pushed, no pull request is opened, no repository code runs; the checkout is kept and reported.',
      ),
      run_repository_code: optionalBoolean(
        false,
        "RISK: also run the guard through the repository's own build tool (e.g. npm run check:agent-docs), which runs code from the " +
          'repository (npm pre/post scripts, build plugins) as the server user, with a scrubbed environment and the same deadline. ' +
          'Off by default: the server checks the guard itself. Never with dry_run.',
      ),
      keep_checkout: optionalBoolean(
        false,
        'Keep the checkout of a repository_url after a successful run (it is removed otherwise; failed runs and dry runs keep theirs, at most 10).',
      ),
      use_claude: optionalBoolean(
        false,
        "Let the claude CLI write the agent docs when it is installed (templates complete them either way); it loads only the user's settings, not the repository's hooks.",
      ),
      timeout_minutes: optionalBoundedInt(
        1,
        60,
        10,
        'Deadline for every child process (git, gh, the guard); it is killed with its children when it passes.',
      ),
      retries: optionalBoundedInt(
        0,
        5,
        2,
        'Retries of transport failures (connection refused/reset, 5xx), after 2 s, 4 s, 8 s … (capped at 30 s).',
      ),
    }),
    output: z.object({ succeeded: z.boolean(), repositories: z.array(report) }),
    // Destructive: it pushes to remotes and commits in a local checkout. Open world: it talks to remote hosts.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    // May run long on a big input: a client that supports tasks may run it as one.
    taskSupport: 'optional',
  },
  async apply(args, ctx) {
    const urls = [
      ...(args.repository_url === undefined ? [] : [args.repository_url]),
      ...(args.repository_urls ?? []),
    ];
    if (urls.length === 0 && args.path === undefined) {
      throw new InvalidArgumentError(
        'repository_url',
        'give repository_url, repository_urls or path (a local checkout).',
      );
    }
    if (urls.length > 0 && args.path !== undefined) {
      throw new InvalidArgumentError('path', 'give either path or repository_url(s), not both.');
    }
    if (args.dry_run && args.run_repository_code) {
      throw new InvalidArgumentError(
        'run_repository_code',
        'a dry run never runs code from the repository; drop one of the two.',
      );
    }
    const agents = parseAgents(args.agents) ?? [];
    const workspace = await ctx.allowedPaths.resolve(args.workspace ?? DEFAULT_WORKSPACE);
    const targets =
      args.path === undefined
        ? urls.map((url) => ({ kind: 'url' as const, url }))
        : [{ kind: 'path' as const, path: await ctx.allowedPaths.resolve(args.path), shownAs: args.path }];
    const { adoptRepositories } = await import('../core/adopt/adoptRepository.js');
    const backoff = Number(process.env.GROUNDWORK_ADOPT_BACKOFF_MS);
    ctx.progress(0, targets.length, 'repositories');
    const repositories = await adoptRepositories(
      targets,
      {
        workspace,
        branch: args.branch,
        title: args.title ?? DEFAULT_PULL_REQUEST_TITLE,
        body: args.body ?? DEFAULT_PULL_REQUEST_BODY,
        reviewers: args.reviewers ?? [],
        labels: args.labels ?? [],
        assignees: args.assignees ?? [],
        draft: args.draft,
        assets: args.assets,
        agents,
        dryRun: args.dry_run,
        runRepositoryCode: args.run_repository_code,
        keepCheckout: args.keep_checkout,
        useClaude: args.use_claude,
        timeoutMs: args.timeout_minutes * 60_000,
        retries: args.retries,
        // A test hook: integration tests shrink the 2 s backoff so a refused connection fails fast.
        ...(Number.isFinite(backoff) && backoff >= 0 ? { backoffBaseMs: backoff } : {}),
        signal: ctx.signal,
        log: (message) => ctx.log.info(message),
        display: (absolute) => ctx.allowedPaths.display(absolute),
        // file:// URLs and local paths are remotes only under the allowed directories.
        confineLocalRemote: (given) => ctx.allowedPaths.resolve(given),
      },
      (done, total) => ctx.progress(done, total, 'repositories'),
    );
    const succeeded = repositories.every((entry) => entry.succeeded);
    const result = { succeeded, repositories };
    if (succeeded) return ToolResult.success(result);
    const failed = repositories.filter((entry) => !entry.succeeded).length;
    return ToolResult.error(
      `${failed} of ${repositories.length} repositories failed.\n${JSON.stringify(result, null, 2)}`,
    );
  },
});
