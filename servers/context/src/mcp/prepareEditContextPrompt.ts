// The prepare-edit-context workflow as a prompt: which tools to call, in order, to load exactly the context
// an edit of one file needs under a token budget (the skill skills/prepare-edit-context says the same).
import { definePrompt } from '@groundwork/mcp-common';
import { MAX_BUNDLE_TOKENS, MIN_BUNDLE_TOKENS } from '../core/contextBundle.js';
import {
  call,
  fileArgument,
  integerArgument,
  projectPathArgument,
  symbolArgument,
} from './promptArguments.js';

const DEFAULT_BUDGET = 20_000;

export const prepareEditContextPrompt = definePrompt({
  definition: {
    name: 'prepare-edit-context',
    title: 'Prepare the context for an edit',
    description:
      'Loads the file you will edit and its most relevant dependencies under a token budget: its outline, what it depends on, what that costs, then a context bundle that fits.',
    arguments: [
      projectPathArgument,
      fileArgument('The file you will edit, relative to the project root (as project_tree lists it).'),
      symbolArgument,
      {
        name: 'budget_tokens',
        description: `The most tokens the context may cost, ${MIN_BUNDLE_TOKENS}–${MAX_BUNDLE_TOKENS} (default ${DEFAULT_BUDGET}).`,
      },
      { name: 'task', description: 'What the edit should do, in a sentence (optional).' },
    ],
  },
  async render(args) {
    const budget = integerArgument(args, 'budget_tokens', {
      min: MIN_BUNDLE_TOKENS,
      max: MAX_BUNDLE_TOKENS,
      default: DEFAULT_BUDGET,
    });
    const path = args.path as string;
    const file = args.file as string;
    const symbol = args.symbol?.trim() || undefined;
    const task = args.task?.trim() || undefined;
    const lines = [
      `Prepare the context for editing ${JSON.stringify(file)} in the project ${JSON.stringify(path)}` +
        (task === undefined ? '.' : `. The edit: ${task}`),
      '',
      'Use the groundwork-context tools, in this order:',
      `1. Call ${call('symbols', { path, file })} for the file's top-level declarations` +
        (symbol === undefined
          ? '.'
          : ` and find ${JSON.stringify(symbol)} in it (its line, signature and whether it is exported).`),
      `2. Call ${call('find_context', { path, file, depth: 2 })} for the files it depends on, nearest first. While the answer has \`next_cursor\`, call again with it as \`cursor\` and the same other arguments.`,
      `3. Call ${call('estimate_tokens', { path, files: [file], depth: 2 })}: \`total\` is the exact cost of reading the file and those dependencies.`,
      `4. Call ${call('context_bundle', { path, files: [file], budget_tokens: budget })}. The whole answer fits the budget. Each file has a \`mode\`: \`full\` is the whole file, \`outline\` only its exported declarations (call \`symbols\` on it or raise budget_tokens if you need a body), \`partial_outline\` means the file you edit did not fit — call again with a larger budget_tokens before editing. \`omitted\` lists files left out.`,
      '5. Read the bundle before you edit.' +
        (symbol === undefined
          ? ' If the edit changes an exported declaration,'
          : ` If ${JSON.stringify(symbol)} is exported and its signature or behaviour changes,`) +
        ` call ${call('find_context', { path, file, direction: 'dependents', depth: 2 })} to see which files may break.`,
      '',
      'Do not conclude that a file missing from these answers is unrelated: dynamic imports of computed names, reflection, generated code and ignored or oversized files draw no import edge (project_tree reports unresolved imports). An outline is not the file.',
    ];
    return [{ role: 'user', text: lines.join('\n') }];
  },
});
