import { describe, expect, it } from 'vitest';
import { isIgnored, parseGitignore } from './gitignore.js';

const LOCAL = '.claude/settings.local.json';

describe('isIgnored', () => {
  it.each([
    ['.claude/settings.local.json', true],
    ['settings.local.json', true],
    ['*.local.json', true],
    ['.claude/', true],
    ['**/settings.local.json', true],
    ['.claude/**', true],
    ['/settings.local.json', false],
    ['.claude', true],
    ['node_modules/', false],
    ['.claude/*.json\n!.claude/settings.local.json', false],
    ['.claude/\n!.claude/settings.local.json', true],
  ])('with %j: %s', (gitignore, ignored) => {
    expect(isIgnored(parseGitignore(gitignore), LOCAL)).toBe(ignored);
  });

  it('reads a .gitignore inside .claude/ relative to that folder', () => {
    expect(isIgnored(parseGitignore('settings.local.json\n', '.claude'), LOCAL)).toBe(true);
    expect(isIgnored(parseGitignore('other.json\n', '.claude'), LOCAL)).toBe(false);
  });
});
