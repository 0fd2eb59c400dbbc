// verify_repo for every agent besides Claude Code: reads the files agentLayout found, runs each agent's rules
// and the contradiction rule across them, and returns what it read (for the secret rule).
import path from 'node:path';
import { mentionsAgentsMd } from '../claudeMdRules.js';
import type { FindingSink } from '../finding.js';
import type { RepoFiles } from '../repoFiles.js';
import { type RepoLayout, SKIPPED_FOLDERS } from '../repoLayout.js';
import { checkCodexProjectDocs, projectDocMaxBytes } from './codexRules.js';
import { checkPackageManagerContradictions, type InstructionText } from './contradictionRules.js';
import { checkCopilotFiles } from './copilotRules.js';
import { checkCursorRules } from './cursorRules.js';
import {
  checkGeminiContext,
  checkGeminiSettings,
  contextFileNames,
  geminiContextFiles,
} from './geminiRules.js';
import type { WalkedTree } from './globMatch.js';
import { type JsoncDocument, parseJsonc } from './jsoncDocument.js';
import { checkMcpConfig } from './mcpConfigRules.js';

type KindOf = (relative: string) => Promise<'file' | 'directory' | undefined>;

export async function checkAgentFiles(
  files: RepoFiles,
  layout: RepoLayout,
  kindOf: KindOf,
  /** CLAUDE.md and AGENTS.md files as the instruction rules read them. */
  instructions: ReadonlyArray<{ file: string; text: string }>,
  sink: FindingSink,
): Promise<InstructionText[]> {
  const agents = layout.agents;
  const readAll = (list: readonly string[]) =>
    Promise.all(list.map(async (file) => ({ file, text: (await files.read(file)) ?? '' })));
  const [cursorRules, cursorrules, copilotInstructions, pathInstructions, prompts, overrides, codexConfig] =
    await Promise.all([
      readAll(agents.cursorRules),
      readAll(agents.cursorrules),
      readAll(agents.copilotInstructions),
      readAll(agents.copilotPathInstructions),
      readAll(agents.copilotPrompts),
      readAll(agents.codexOverrides),
      readAll(agents.codexConfig),
    ]);
  const mcpConfigs = await readAll(agents.mcpConfigs.map((entry) => entry.file));
  const tree: WalkedTree = {
    files: layout.files,
    directories: layout.directories,
    truncated: layout.truncated,
    skippedNames: SKIPPED_FOLDERS,
  };

  let geminiSettings: JsoncDocument | undefined;
  agents.mcpConfigs.forEach(({ file, format }, index) => {
    const text = mcpConfigs[index]?.text ?? '';
    const document = parseJsonc(text, { trailingCommas: format !== 'gemini' });
    if (document.error !== undefined) {
      const reader = format === 'gemini' ? 'Gemini CLI skips the whole file' : 'no server in it loads';
      sink.report(
        format === 'gemini' ? 'gemini-settings/json' : 'mcp-config/json',
        file,
        `Not valid JSON (${document.error.message}): ${reader}.`,
        {
          line: document.error.line,
          fix:
            format === 'gemini'
              ? 'Fix the JSON syntax (comments are allowed, trailing commas are not).'
              : 'Fix the JSON syntax.',
        },
      );
      return;
    }
    if (format === 'gemini') {
      geminiSettings = document;
      checkGeminiSettings(file, document, layout.files, sink);
    }
    checkMcpConfig(file, document, format, sink);
  });

  const names = contextFileNames(geminiSettings);
  const contextFiles = geminiContextFiles(layout.files, names);
  const geminiLoaded =
    contextFiles.length === 0 ? [] : await checkGeminiContext(files, contextFiles, sink, kindOf);
  const rootContext = contextFiles.find((file) => !file.includes('/'));
  if (
    rootContext !== undefined &&
    layout.files.has('AGENTS.md') &&
    !names.includes('AGENTS.md') &&
    !(await files.sameFile(rootContext, 'AGENTS.md')) &&
    !geminiLoaded.some((entry) => entry.root === rootContext && mentionsAgentsMd(entry.document))
  ) {
    sink.report(
      'gemini-md/refers-to-agents',
      rootContext,
      `${rootContext} neither imports nor mentions AGENTS.md, and Gemini CLI does not read AGENTS.md by itself.`,
      {
        fix: 'Add the line `@./AGENTS.md` to it, or list "AGENTS.md" in `context.fileName` of .gemini/settings.json.',
      },
    );
  }

  const alwaysApplied = checkCursorRules(cursorRules, agents.cursorrules, tree, sink).filter(({ file }) =>
    file.startsWith('.cursor/rules/'),
  );
  checkCopilotFiles(pathInstructions, prompts, tree, sink);

  const agentsMd = instructions.filter((entry) => path.posix.basename(entry.file) === 'AGENTS.md');
  checkCodexProjectDocs([...agentsMd, ...overrides], projectDocMaxBytes(codexConfig[0]?.text), sink);

  const byFile = new Map(instructions.map((entry) => [entry.file, entry.text]));
  const rootGemini = geminiLoaded.find((entry) => entry.file === rootContext);
  const sessionWide: InstructionText[] = [
    ...['AGENTS.md', 'CLAUDE.md', '.claude/CLAUDE.md'].flatMap((file) => {
      const text = byFile.get(file);
      return text === undefined ? [] : [{ file, text }];
    }),
    ...(rootGemini === undefined ? [] : [rootGemini]),
    ...copilotInstructions,
    ...cursorrules,
    ...alwaysApplied,
  ];
  checkPackageManagerContradictions(sessionWide, sink);

  return [
    ...cursorRules,
    ...cursorrules,
    ...copilotInstructions,
    ...pathInstructions,
    ...prompts,
    ...overrides,
    ...mcpConfigs,
    ...geminiLoaded.filter((entry) => !byFile.has(entry.file)),
  ];
}
