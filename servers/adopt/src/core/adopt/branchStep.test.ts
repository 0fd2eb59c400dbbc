import { describe, expect, it } from 'vitest';
import { namesDefaultBranch, normalizeBranch } from './branchStep.js';

describe('normalizeBranch', () => {
  it('takes refs/heads/name as name, so no branch is called refs/heads/…', () => {
    expect(normalizeBranch('refs/heads/agents/adopt')).toBe('agents/adopt');
    expect(normalizeBranch('agents/adopt')).toBe('agents/adopt');
  });
});

describe('namesDefaultBranch', () => {
  it.each(['main', 'Main', 'heads/main', 'origin/main', 'refs/remotes/origin/main'])(
    'sees %j as the default branch',
    (name) => {
      expect(namesDefaultBranch(normalizeBranch(name), 'main')).toBe(true);
    },
  );

  it('lets other branches through', () => {
    expect(namesDefaultBranch('agents/main', 'main')).toBe(false);
  });
});
