import { describe, expect, it } from 'vitest';
import { parseMarkdown } from '../verify/markdownDocument.js';
import { writeAgentDocs } from './agentDocs.js';
import type { ProjectProfile } from './detectProject.js';

const profile: ProjectProfile = {
  languages: ['TypeScript'],
  buildTool: 'pnpm',
  buildCommand: 'pnpm run build',
  testCommand: 'pnpm test',
  layout: [{ path: 'src/', purpose: 'source code' }],
  conventions: ['Biome formats and lints the code (`biome check`).'],
};

describe('writeAgentDocs', () => {
  it('writes every expected AGENTS.md section with the detected commands and layout', () => {
    const { agentsMd, claudeMd } = writeAgentDocs('demo', profile, {});
    expect(parseMarkdown(agentsMd).headings.map((heading) => heading.text)).toEqual([
      'demo',
      'Overview',
      'Layout',
      'Build and test',
      'Conventions',
      'Pull requests',
    ]);
    expect(agentsMd).toContain('- Build: `pnpm run build`\n- Test: `pnpm test`');
    expect(agentsMd).toContain('- `src/` — source code');
    expect(claudeMd).toBe('# demo\n\n@AGENTS.md\n');
  });

  it('keeps existing files and only adds what they lack', () => {
    const agentsMd = '# Demo\n\n## Build\nUse make.\n';
    const claudeMd = '# Demo\n\nSee AGENTS.md for everything.\n';
    const docs = writeAgentDocs('demo', profile, { agentsMd, claudeMd });
    expect(docs.agentsMd.startsWith(agentsMd)).toBe(true);
    expect(docs.agentsMd).not.toContain('## Build and test');
    expect(docs.agentsMd).toContain('## Overview');
    expect(docs.claudeMd).toBe(claudeMd);
  });

  it('imports AGENTS.md from the folder above for a CLAUDE.md in .claude/', () => {
    expect(writeAgentDocs('demo', profile, { claudeMd: 'Notes.\n' }, '@../AGENTS.md').claudeMd).toBe(
      '# demo\n\nNotes.\n\n@../AGENTS.md\n',
    );
  });

  it('never says "no build tool" about a project it says is built with one', () => {
    const { agentsMd } = writeAgentDocs(
      'demo',
      { ...profile, buildCommand: undefined, testCommand: undefined },
      {},
    );
    expect(agentsMd).toContain('built with pnpm');
    expect(agentsMd).not.toContain('No build tool was detected');
    expect(agentsMd).toContain('pnpm defines no build or test command yet');
  });
});
