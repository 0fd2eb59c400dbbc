// The other agents' files adopt_repo writes so that every agent reads the one AGENTS.md: GEMINI.md importing it,
// Copilot's repository instructions and an always-applied Cursor rule pointing to it. Codex reads AGENTS.md
// itself, Claude Code through CLAUDE.md (agentDocs.ts). An existing file is completed — a pointer appended when it
// neither imports nor mentions AGENTS.md — and never overwritten.
import { mentionsAgentsMd } from '../verify/claudeMdRules.js';
import { parseMarkdown } from '../verify/markdownDocument.js';

export const AGENT_NAMES = ['claude', 'codex', 'copilot', 'cursor', 'gemini'] as const;
export type AgentName = (typeof AGENT_NAMES)[number];

interface PointerFile {
  agent: AgentName;
  file: string;
  create: (projectName: string) => string;
  /** The completed text, or undefined when the file already leads to AGENTS.md (or is never changed). */
  complete: (existing: string) => string | undefined;
}

const POINTERS: readonly PointerFile[] = [
  {
    agent: 'gemini',
    file: 'GEMINI.md',
    create: (name) => `# ${name}\n\n@./AGENTS.md\n`,
    complete: (existing) => appended(existing, '@./AGENTS.md'),
  },
  {
    agent: 'copilot',
    file: '.github/copilot-instructions.md',
    create: (name) =>
      `# ${name}\n\nThe instructions for coding agents in this repository are in [AGENTS.md](../AGENTS.md): read them before any change.\n`,
    complete: (existing) =>
      appended(
        existing,
        'The instructions for coding agents in this repository are in [AGENTS.md](../AGENTS.md).',
      ),
  },
  {
    agent: 'cursor',
    file: '.cursor/rules/agents.mdc',
    create: () =>
      '---\ndescription: The instructions for coding agents in this repository (AGENTS.md)\nalwaysApply: true\n---\n\nFollow the instructions in AGENTS.md at the repository root: @AGENTS.md\n',
    // A rule of this name that exists is the user's: it is left as it is.
    complete: () => undefined,
  },
];

/** The files each named agent reads that adopt writes, in a stable order. */
export const AGENT_POINTER_FILES: readonly string[] = POINTERS.map((pointer) => pointer.file);

export interface PointerChange {
  file: string;
  agent: AgentName;
  /** `created`, `completed` (a pointer appended), or `kept` (already leads to AGENTS.md, or is the user's rule). */
  action: 'created' | 'completed' | 'kept';
  text?: string;
}

/**
 * What to write for `agents`, given the files that exist (`existing`: file → text). An existing GEMINI.md is
 * completed even when Gemini is not named, as Gemini CLI would otherwise never see AGENTS.md.
 */
export function agentPointerChanges(
  projectName: string,
  agents: readonly AgentName[],
  existing: ReadonlyMap<string, string>,
  /** Whether Gemini CLI already loads AGENTS.md itself (`context.fileName` names it). */
  geminiReadsAgentsMd = false,
): PointerChange[] {
  const changes: PointerChange[] = [];
  for (const pointer of POINTERS) {
    // Gemini CLI alone does not read AGENTS.md: its file is completed even when the caller did not name it.
    if (!agents.includes(pointer.agent) && pointer.agent !== 'gemini') continue;
    const current = existing.get(pointer.file);
    if (current === undefined) {
      if (!agents.includes(pointer.agent) || (pointer.agent === 'gemini' && geminiReadsAgentsMd)) continue;
      changes.push({
        file: pointer.file,
        agent: pointer.agent,
        action: 'created',
        text: pointer.create(projectName),
      });
      continue;
    }
    const completed =
      pointer.agent === 'gemini' && geminiReadsAgentsMd ? undefined : pointer.complete(current);
    changes.push(
      completed === undefined
        ? { file: pointer.file, agent: pointer.agent, action: 'kept' }
        : { file: pointer.file, agent: pointer.agent, action: 'completed', text: completed },
    );
  }
  return changes;
}

function appended(existing: string, line: string): string | undefined {
  if (mentionsAgentsMd(parseMarkdown(existing))) return undefined;
  return `${existing}${existing.endsWith('\n') || existing === '' ? '' : '\n'}\n${line}\n`;
}
