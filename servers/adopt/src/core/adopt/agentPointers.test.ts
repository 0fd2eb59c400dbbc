import { describe, expect, it } from 'vitest';
import { agentPointerChanges } from './agentPointers.js';

describe('agentPointerChanges', () => {
  it('writes a file for each named agent that has none, each leading to AGENTS.md', () => {
    const changes = agentPointerChanges(
      'demo',
      ['cursor', 'copilot', 'gemini', 'codex', 'claude'],
      new Map(),
    );
    expect(changes.map(({ file, action }) => `${action} ${file}`)).toEqual([
      'created GEMINI.md',
      'created .github/copilot-instructions.md',
      'created .cursor/rules/agents.mdc',
    ]);
    expect(changes[0]?.text).toBe('# demo\n\n@./AGENTS.md\n');
    expect(changes[1]?.text).toContain('[AGENTS.md](../AGENTS.md)');
    expect(changes[2]?.text).toMatch(/^---\ndescription: .+\nalwaysApply: true\n---\n/);
  });

  it('completes existing files without changing what they say, and keeps those that already lead there', () => {
    const existing = new Map([
      ['GEMINI.md', '# Demo\n\nGemini notes.'],
      ['.github/copilot-instructions.md', '# Demo\n\nSee AGENTS.md.\n'],
      ['.cursor/rules/agents.mdc', '---\nalwaysApply: true\n---\nMine.\n'],
    ]);
    const changes = agentPointerChanges('demo', ['copilot', 'cursor'], existing);
    expect(changes).toEqual([
      {
        file: 'GEMINI.md',
        agent: 'gemini',
        action: 'completed',
        text: '# Demo\n\nGemini notes.\n\n@./AGENTS.md\n',
      },
      { file: '.github/copilot-instructions.md', agent: 'copilot', action: 'kept' },
      { file: '.cursor/rules/agents.mdc', agent: 'cursor', action: 'kept' },
    ]);
  });

  it('writes nothing for agents not named, and no GEMINI.md import when Gemini already loads AGENTS.md', () => {
    expect(agentPointerChanges('demo', [], new Map())).toEqual([]);
    expect(agentPointerChanges('demo', ['gemini'], new Map(), true)).toEqual([]);
    expect(agentPointerChanges('demo', [], new Map([['GEMINI.md', '# X\n']]), true)).toEqual([
      { file: 'GEMINI.md', agent: 'gemini', action: 'kept' },
    ]);
  });
});
