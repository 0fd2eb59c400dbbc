// The what-to-test workflow as a prompt: after a change, which tests must run, and how (the skill
// skills/what-to-test says the same).
import { definePrompt } from '@groundwork/mcp-common';
import { completeBase } from './projectCompleters.js';
import { call, projectPathArgument } from './promptArguments.js';

export const whatToTestPrompt = definePrompt({
  definition: {
    name: 'what-to-test',
    title: 'What must I test after this change?',
    description:
      'Finds the tests that can observe your change (since a branch, tag or commit, or in the files you name), the commands that run exactly them, and what the change touches, then runs them.',
    arguments: [
      projectPathArgument,
      {
        name: 'base',
        description:
          'The branch, tag or commit to compare with (default: the merge-base with the default branch).',
        complete: completeBase,
      },
      {
        name: 'files',
        description: 'Instead of git: the changed files, comma-separated, relative to the project root.',
      },
    ],
  },
  async render(args) {
    const path = args.path as string;
    const base = args.base?.trim() || undefined;
    const files = args.files
      ?.split(',')
      .map((file) => file.trim())
      .filter((file) => file !== '');
    const named = files !== undefined && files.length > 0 ? files : undefined;
    const request: Record<string, unknown> = {
      path,
      ...(named !== undefined ? { files: named } : base === undefined ? {} : { base }),
    };
    const since =
      named !== undefined
        ? `the files ${JSON.stringify(named)}`
        : base === undefined
          ? 'the merge-base with the default branch (committed, staged, unstaged and untracked changes)'
          : `${JSON.stringify(base)} (committed, staged, unstaged and untracked changes)`;
    const lines = [
      `Find and run the tests that can observe the change to project ${JSON.stringify(path)} since ${since}.`,
      '',
      'Use the groundwork-context tools:',
      `1. Call ${call('change_impact', request)}. Check \`state\` (the commit and dirty files it describes) and \`changed_files\`; if a list was cut short, \`cursors\` has a cursor for it: call again with it as \`cursor\` and the same other arguments.`,
      '2. Run each `test_commands` entry from its `cwd` (relative to the project root): each runs exactly the test files listed in `tests` for that runner. Report what failed with its test file.',
      '3. Read `notes`: a changed build or resolution config (package.json, tsconfig, go.mod, pyproject.toml…) can reach any test — then run the whole suite.',
      '4. Read `changed_declarations` and `bundle` (the hunks and the nearest dependents’ signatures): a removed or modified export that a dependent still uses needs that dependent updated, tested or not.',
      '',
      'The selection follows imports (and Go packages, Python package `__init__.py` files, `conftest.py`): code reached only by reflection, string registries or generated files is not seen, and tests outside the project are not.',
    ];
    return [{ role: 'user', text: lines.join('\n') }];
  },
});
