import { describe, expect, it } from 'vitest';
import { parseRemoteUrl, redactor } from './remoteUrl.js';

describe('parseRemoteUrl', () => {
  it('separates the token from the URL that may be stored and shown', () => {
    const remote = parseRemoteUrl('https://x-access-token:ghp_fakefakefake@github.com/octo/demo.git');
    expect(remote).toMatchObject({
      clean: 'https://github.com/octo/demo.git',
      token: 'ghp_fakefakefake',
      slug: 'octo-demo',
      ghRepo: 'octo/demo',
    });
  });

  it('names a repository off github.com with its host for gh', () => {
    expect(parseRemoteUrl('https://git.example.com/team/app').ghRepo).toBe('git.example.com/team/app');
  });

  it('accepts scp-like ssh addresses', () => {
    expect(parseRemoteUrl('git@github.com:octo/demo.git')).toMatchObject({
      slug: 'octo-demo',
      ghRepo: 'octo/demo',
    });
  });

  it('refuses something that is not a repository URL, masking what it echoes', () => {
    expect(() => parseRemoteUrl('ftp://user:hunter2secret@host/repo')).toThrow(/unsupported scheme 'ftp:'/);
    expect(() => parseRemoteUrl('ftp://user:hunter2secret@host/repo')).not.toThrow(/hunter2secret/);
  });
});

describe('redactor', () => {
  it('masks the known token wherever it appears, and URL credentials generally', () => {
    const redact = redactor(['s3cr3t-token']);
    expect(
      redact("fatal: unable to access 'https://me:s3cr3t-token@host/r.git/' (s3cr3t-token)"),
    ).not.toContain('s3cr3t-token');
  });
});
