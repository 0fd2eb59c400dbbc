import { describe, expect, it } from 'vitest';
import { parseRemoteUrl, redactor } from './remoteUrl.js';

describe('parseRemoteUrl', () => {
  it('separates the token from the URL that may be stored and shown', () => {
    const remote = parseRemoteUrl('https://x-access-token:ghp_fakefakefake@github.com/octo/demo.git');
    expect(remote).toMatchObject({
      clean: 'https://github.com/octo/demo.git',
      kind: 'network',
      credentials: { username: 'x-access-token', password: 'ghp_fakefakefake' },
      slug: 'octo-demo',
      ghRepo: 'octo/demo',
      host: 'github.com',
    });
  });

  it('takes a lone user name in an https URL as the token', () => {
    expect(parseRemoteUrl('https://ghp_lonelonelone@github.com/o/r').credentials).toEqual({
      username: 'x-access-token',
      password: 'ghp_lonelonelone',
    });
  });

  it('names a repository off github.com with its host for gh', () => {
    expect(parseRemoteUrl('https://git.example.com/team/app').ghRepo).toBe('git.example.com/team/app');
  });

  it('accepts scp-like ssh addresses and ssh:// URLs', () => {
    expect(parseRemoteUrl('git@github.com:octo/demo.git')).toMatchObject({
      kind: 'network',
      slug: 'octo-demo',
      ghRepo: 'octo/demo',
    });
    expect(parseRemoteUrl('ssh://git@github.com/octo/demo.git').clean).toBe(
      'ssh://git@github.com/octo/demo.git',
    );
  });

  it('marks file:// URLs and paths as local, for the caller to confine to the allowed directories', () => {
    expect(parseRemoteUrl('file:///srv/git/demo.git')).toMatchObject({
      kind: 'local',
      localPath: '/srv/git/demo.git',
    });
    expect(parseRemoteUrl('/srv/git/demo.git')).toMatchObject({
      kind: 'local',
      localPath: '/srv/git/demo.git',
    });
    expect(parseRemoteUrl('repos/demo.git')).toMatchObject({ kind: 'local', localPath: 'repos/demo.git' });
  });

  it.each([
    ['ext::sh -c touch% /tmp/pwned', 'remote helper'],
    ['fd::17', 'remote helper'],
    ['--upload-pack=touch /tmp/pwned', "starts with '-'"],
    ['-oProxyCommand=touch /tmp/pwned:x', "starts with '-'"],
    ['git@-oProxyCommand=x:repo', "invalid host '-oProxyCommand=x'"],
    ['host:-repo', "path starting with '-'"],
    ['ssh://-oProxyCommand=x@host/repo', "user starting with '-'"],
    ['ssh://-oProxyCommand=x/repo', 'no valid host'],
    ['ssh://%2DoProxyCommand=x@host/repo', "user starting with '-'"],
    ['ssh://%2Dhost/repo', 'no valid host'],
    ['ftp://host/repo', "unsupported scheme 'ftp:'"],
    ['git://host/repo', "unsupported scheme 'git:'"],
    ['http://example.com/o/r', 'plain http://'],
    ['file://otherhost/srv/repo', 'names a host'],
    ['https://host/repo\nevil', 'control characters'],
    ['ssh://me:hunter2@host/repo', 'password in an ssh:// URL'],
  ])('refuses %j before git sees it', (given, problem) => {
    expect(() => parseRemoteUrl(given)).toThrow(problem);
    expect(() => parseRemoteUrl(given)).toThrow("Invalid argument 'repository_url'");
  });

  it('accepts plain http only to this machine (test servers)', () => {
    expect(parseRemoteUrl('http://127.0.0.1:8080/r.git').kind).toBe('network');
  });

  it('never echoes credentials of a URL it refuses', () => {
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
