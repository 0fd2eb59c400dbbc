// The assess-edit-impact workflow as a prompt: which files may break when a file's declaration changes
// (the skill skills/assess-edit-impact says the same).
import { definePrompt } from '@groundwork/mcp-common';
import {
  call,
  fileArgument,
  integerArgument,
  projectPathArgument,
  symbolArgument,
} from './promptArguments.js';

const DEFAULT_DEPTH = 3;

export const assessEditImpactPrompt = definePrompt({
  definition: {
    name: 'assess-edit-impact',
    title: 'Assess what an edit may break',
    description:
      'Finds the files that import the file you will change (directly and through re-exports), the cost of reading them, and how to check each one for the changed declaration.',
    arguments: [
      projectPathArgument,
      fileArgument('The file whose declaration changes, relative to the project root.'),
      symbolArgument,
      { name: 'depth', description: `Import hops to follow back, 1–10 (default ${DEFAULT_DEPTH}).` },
    ],
  },
  async render(args) {
    const depth = integerArgument(args, 'depth', { min: 1, max: 10, default: DEFAULT_DEPTH });
    const path = args.path as string;
    const file = args.file as string;
    const symbol = args.symbol?.trim() || undefined;
    const what = symbol === undefined ? 'the declaration you change' : JSON.stringify(symbol);
    const lines = [
      `Find what may break when ${what} in ${JSON.stringify(file)} (project ${JSON.stringify(path)}) changes.`,
      '',
      'Use the groundwork-context tools, in this order:',
      `1. Call ${call('symbols', { path, file })} and look up ${what}: if it is not \`exported\`, no other file can use it by name, except the files of its own Go package (a Python \`_name\` is private by convention only: check anyway).`,
      `2. Call ${call('find_context', { path, file, direction: 'dependents', depth })} for the files that import it, directly (\`distance\` 1) or through re-exports and barrels. While the answer has \`next_cursor\`, call again with it as \`cursor\` and the same other arguments; \`total\` counts them all.`,
      `3. Call ${call('estimate_tokens', { path, files: ['<the dependents>'], depth: 0 })} to price reading them; if that is more than you can read, take distance 1 first, or pack them with ${call('context_bundle', { path, files: ['<the dependents>'], budget_tokens: 20000, depth: 0 })}.`,
      `4. Check each dependent for ${what} itself and update its uses together with the change.`,
      '',
      'The graph is of files and imports: a dependent imports the file but may not use this declaration, and no dependents does not prove no users (other repositories, dynamic imports, reflection, string registries, published packages).',
    ];
    return [{ role: 'user', text: lines.join('\n') }];
  },
});
