// The make-repo-agent-ready workflow as a prompt: verify, dry run, review, then the real run after the
// user agrees (the skill skills/make-repo-agent-ready says the same).
import { completeFrom, completeListItem, definePrompt, InvalidArgumentError } from '@groundwork/mcp-common';
import { AGENT_NAMES } from '../core/adopt/agentPointers.js';
import { parseAgents } from './agentArgument.js';
import { call, repositoryPathArgument } from './promptArguments.js';

export const makeRepoAgentReadyPrompt = definePrompt({
  definition: {
    name: 'make-repo-agent-ready',
    title: 'Make a repository agent-ready',
    description:
      'Checks a repository with verify_repo, previews adopt_repo with a dry run, and — once you agree — writes AGENTS.md, CLAUDE.md and a build guard on a branch and opens a pull request.',
    arguments: [
      {
        name: 'repository_url',
        description:
          'The repository to clone (https://, ssh:// or git@host:owner/repo), or give path instead.',
      },
      {
        ...repositoryPathArgument,
        description: 'A clean local git checkout with an origin, instead of repository_url.',
      },
      { name: 'branch', description: "The branch to push (default 'agents/adopt-conventions')." },
      {
        name: 'agents',
        description: `Comma-separated agents to write files for from AGENTS.md besides CLAUDE.md: ${AGENT_NAMES.join(', ')}.`,
        complete: completeListItem(completeFrom(AGENT_NAMES)),
      },
      {
        name: 'assets',
        description: "'true' to also add .mcp.json, .claude/settings.json and a session-start hook.",
        complete: completeFrom(['true', 'false']),
      },
    ],
  },
  async render(args) {
    const url = args.repository_url?.trim() || undefined;
    const path = args.path?.trim() || undefined;
    if (url === undefined && path === undefined) {
      throw new InvalidArgumentError('repository_url', 'give repository_url or path (a local checkout).');
    }
    if (url !== undefined && path !== undefined) {
      throw new InvalidArgumentError('path', 'give either path or repository_url, not both.');
    }
    if (url !== undefined && carriesCredentials(url)) {
      throw new InvalidArgumentError(
        'repository_url',
        "holds credentials, and a prompt's text goes to the model: give the URL without them (gh's login is used), or call adopt_repo yourself.",
      );
    }
    const assets = args.assets?.trim() || 'false';
    if (assets !== 'true' && assets !== 'false') {
      throw new InvalidArgumentError(
        'assets',
        `expected 'true' or 'false', got ${JSON.stringify(assets.slice(0, 40))}.`,
      );
    }
    const agents =
      parseAgents(
        (args.agents ?? '')
          .split(',')
          .map((agent) => agent.trim())
          .filter((agent) => agent !== ''),
      ) ?? [];
    const branch = args.branch?.trim() || undefined;
    const target = url === undefined ? { path: path as string } : { repository_url: url };
    const options = {
      ...(branch === undefined ? {} : { branch }),
      ...(assets === 'true' ? { assets: true } : {}),
      ...(agents.length === 0 ? {} : { agents }),
    };
    const lines = [
      `Make ${JSON.stringify(url ?? path)} ready for coding agents, with the groundwork-adopt tools.`,
      '',
      path === undefined
        ? '1. (The repository is only reachable by URL: the dry run below verifies its result.)'
        : `1. Call ${call('verify_repo', { path })} and summarize \`passed\`, \`totals\` and the errors and warnings (rule, file, line, fix). Call ${call('session_cost', { path, ...(agents.length === 0 ? {} : { agents }) })} and say what each agent loads before the first prompt (total tokens, the largest files).`,
      `2. Call ${call('adopt_repo', { ...target, ...options, dry_run: true })}. Nothing is pushed and no repository code runs; the report's \`checkout\` names the kept checkout.`,
      '3. Review the dry run: `succeeded`, `completed_steps`, `notes` (detected languages, build tool, test command, guard wiring), and read the AGENTS.md and CLAUDE.md it wrote in the checkout (and the other agents’ files the notes name). A failed report has `failure: {step, message}`.',
      `4. Show the user what will be pushed and to which branch, and ask before going on. Only with their agreement, call ${call('adopt_repo', { ...target, ...options })} and report \`pull_request_url\`.`,
      '',
      "Do not set run_repository_code: it runs code from the repository (npm scripts, build plugins) as the server's user; the server checks the guard itself. Set it only if the user asks and trusts the repository. Do not retry authentication failures, 404s or rejected pushes in a loop: tell the user.",
    ];
    return [{ role: 'user', text: lines.join('\n') }];
  },
});

/** A URL with user information over HTTP(S) (a token), or a password in any URL. */
function carriesCredentials(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.password !== '' || (/^https?:$/.test(parsed.protocol) && parsed.username !== '');
  } catch {
    return false;
  }
}
