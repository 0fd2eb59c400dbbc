import { describe, expect, it } from 'vitest';
import { plainText } from './terminalText.js';

describe('plainText', () => {
  it('drops colours, resets, cursor moves and titles, and keeps the text', () => {
    expect(plainText('\u001b[0m\u001b[0m')).toBe('');
    expect(plainText('\u001b[1;31m[ERROR]\u001b[m COMPILATION ERROR')).toBe('[ERROR] COMPILATION ERROR');
    expect(plainText('\u001b[2K\u001b[1A> Task :app:compileJava')).toBe('> Task :app:compileJava');
    expect(plainText('\u001b]0;gradle\u0007BUILD SUCCESSFUL')).toBe('BUILD SUCCESSFUL');
    expect(plainText('plain [INFO] line')).toBe('plain [INFO] line');
  });
});
