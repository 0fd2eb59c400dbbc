// AGENTS.md and CLAUDE.md written from what `detect` found. Existing files are completed — missing sections
// appended, a missing title or AGENTS.md reference added — and never overwritten.
import { EXPECTED_SECTIONS } from '../verify/agentsMdRules.js';
import { mentionsAgentsMd } from '../verify/claudeMdRules.js';
import { parseMarkdown } from '../verify/markdownDocument.js';
import type { ProjectProfile } from './detectProject.js';

export interface AgentDocs {
  agentsMd: string;
  claudeMd: string;
}

export function writeAgentDocs(
  projectName: string,
  profile: ProjectProfile,
  existing: { agentsMd?: string; claudeMd?: string },
  /** How CLAUDE.md imports AGENTS.md from where it lives. */
  agentsImport = '@AGENTS.md',
): AgentDocs {
  return {
    agentsMd:
      existing.agentsMd === undefined || existing.agentsMd.trim() === ''
        ? newAgentsMd(projectName, profile)
        : completeAgentsMd(existing.agentsMd, profile),
    claudeMd:
      existing.claudeMd === undefined || existing.claudeMd.trim() === ''
        ? newClaudeMd(projectName, agentsImport)
        : completeClaudeMd(existing.claudeMd, projectName, agentsImport),
  };
}

function sectionBodies(profile: ProjectProfile): Record<string, { heading: string; body: string }> {
  const commands = [
    profile.buildCommand === undefined ? undefined : `- Build: \`${profile.buildCommand}\``,
    profile.testCommand === undefined ? undefined : `- Test: \`${profile.testCommand}\``,
    profile.lintCommand === undefined ? undefined : `- Lint: \`${profile.lintCommand}\``,
  ].filter((line): line is string => line !== undefined);
  const languages = profile.languages.filter((language) => language !== 'unknown');
  return {
    overview: {
      heading: 'Overview',
      body: `${languages.length > 0 ? `A ${languages.join(' and ')} project` : 'This project'}${profile.buildTool === 'none' ? '' : ` built with ${profile.buildTool}`}.`,
    },
    layout: {
      heading: 'Layout',
      body:
        profile.layout.length === 0
          ? '- Everything lives at the repository root.'
          : profile.layout.map((entry) => `- \`${entry.path}\` — ${entry.purpose}`).join('\n'),
    },
    'build and test': {
      heading: 'Build and test',
      body:
        commands.length > 0
          ? `${commands.join('\n')}\n- \`sh scripts/check-agent-docs.sh\` checks these agent instructions.`
          : profile.buildTool === 'none'
            ? '- No build tool was detected; document the commands here.'
            : `- ${profile.buildTool} defines no build or test command yet; document the commands here.`,
    },
    conventions: {
      heading: 'Conventions',
      body: [
        ...profile.conventions.map((convention) => `- ${convention}`),
        '- Keep AGENTS.md and CLAUDE.md accurate when commands or layout change; the build checks they exist.',
      ].join('\n'),
    },
    'pull requests': {
      heading: 'Pull requests',
      body: `- Run ${profile.testCommand === undefined ? 'the tests' : `\`${profile.testCommand}\``} before opening a pull request.\n- One topic per pull request; describe what changed and why.`,
    },
  };
}

function newAgentsMd(projectName: string, profile: ProjectProfile): string {
  const bodies = sectionBodies(profile);
  const sections = EXPECTED_SECTIONS.map(({ section }) => bodies[section]).filter(
    (entry) => entry !== undefined,
  );
  return `# ${projectName}\n\nInstructions for coding agents working in this repository.\n\n${sections.map((entry) => `## ${entry.heading}\n\n${entry.body}\n`).join('\n')}`;
}

function completeAgentsMd(existing: string, profile: ProjectProfile): string {
  const headings = parseMarkdown(existing).headings.map((heading) => heading.text.toLowerCase());
  const bodies = sectionBodies(profile);
  const missing = EXPECTED_SECTIONS.filter(
    ({ headings: pattern }) => !headings.some((heading) => pattern.test(heading)),
  )
    .map(({ section }) => bodies[section])
    .filter((entry) => entry !== undefined);
  if (missing.length === 0) return existing;
  const separator = existing.endsWith('\n') ? '\n' : '\n\n';
  return `${existing}${separator}${missing.map((entry) => `## ${entry.heading}\n\n${entry.body}\n`).join('\n')}`;
}

function newClaudeMd(projectName: string, agentsImport: string): string {
  return `# ${projectName}\n\n${agentsImport}\n`;
}

function completeClaudeMd(existing: string, projectName: string, agentsImport: string): string {
  const document = parseMarkdown(existing);
  let text = existing;
  if (!mentionsAgentsMd(document)) text = `${text}${text.endsWith('\n') ? '' : '\n'}\n${agentsImport}\n`;
  if (!document.headings.some((heading) => heading.depth === 1)) text = `# ${projectName}\n\n${text}`;
  return text;
}
