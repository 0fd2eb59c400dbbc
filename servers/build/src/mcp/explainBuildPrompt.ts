// The explain-build workflow as a prompt: read the build's layout, then the module's dependencies, then its
// health (the skill skills/explain-build says the same).
import { definePrompt } from '@groundwork/mcp-common';
import { completeBuildPath, completeConfiguration, completeModule } from './buildCompletions.js';

/** A tool call written out for the model: the tool's name and its arguments as JSON. */
export function call(tool: string, args: Record<string, unknown>): string {
  return `\`${tool}\` with \`${JSON.stringify(args)}\``;
}

export const explainBuildPrompt = definePrompt({
  definition: {
    name: 'explain-build',
    title: 'Explain this build',
    description:
      "Reads a repository's build statically (modules, edges, pinned tools, settings, declared dependencies, health findings) with the groundwork-build tools and explains it, without running the build.",
    arguments: [
      {
        name: 'path',
        description: "The build's root folder, inside the server's allowed directories.",
        required: true,
        complete: completeBuildPath,
      },
      {
        name: 'module',
        description: 'A module to focus on (its id as the build tool names it, e.g. :app).',
        complete: completeModule,
      },
      {
        name: 'configuration',
        description:
          'A configuration or scope to focus the dependencies on (implementation, test, devDependencies…).',
        complete: completeConfiguration,
      },
    ],
  },
  async render(args) {
    const path = args.path as string;
    const module = args.module?.trim() || undefined;
    const focus = module === undefined ? {} : { module };
    const configuration = args.configuration?.trim() || undefined;
    const scope = configuration === undefined ? {} : { configuration };
    const lines = [
      `Explain the build under ${JSON.stringify(path)} with the groundwork-build tools; run no build tool yourself.`,
      '',
      `1. Call ${call('build_workspace', { path, ...focus })}: the build systems, modules (ids as the build tool names them), module→module edges, pinned tool versions and settings. Note \`problems\` (files not read or not parsed) and \`cycles\`.`,
      `2. Call ${call('build_dependencies', { path, ...focus, ...scope })}: each declared dependency with its configuration, its version and where that version comes from (\`version.source\`, \`version.defined_at\`). A version with \`unknown\` cannot be known without running the build; say so rather than guess.`,
      `3. Call ${call('build_health', { path })} and summarise the findings by severity, each with its rule and the file:line to edit.`,
      '',
      'Answer with: the build systems and their pinned versions, the module graph in a few lines, the notable dependencies, and the findings worth fixing first.',
    ];
    return [{ role: 'user', text: lines.join('\n') }];
  },
});
