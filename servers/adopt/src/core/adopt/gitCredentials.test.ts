import { spawnSync } from 'node:child_process';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCredentialChannel } from './gitCredentials.js';

describe('openCredentialChannel', () => {
  it('answers git from private files and removes them when disposed', async () => {
    const channel = await openCredentialChannel(
      { username: 'x-access-token', password: 'ghp_channelchannel' },
      'github.com',
    );
    const helper = (channel.gitConfig.at(-1) as string).replace(/^credential\.helper=/, '');
    const dir = path.dirname(helper);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    for (const name of ['username', 'password'])
      expect((await stat(path.join(dir, name))).mode & 0o777).toBe(0o600);
    // The way git calls a helper: the action as argument, the request on stdin.
    const answer = spawnSync(helper, ['get'], {
      input: 'protocol=https\nhost=github.com\n\n',
      encoding: 'utf8',
    });
    expect(answer.stdout).toBe('username=x-access-token\npassword=ghp_channelchannel\n');
    expect(spawnSync(helper, ['store'], { input: 'password=x\n', encoding: 'utf8' }).stdout).toBe('');
    expect(channel.gitConfig.join(' ')).not.toContain('ghp_channelchannel');
    expect(JSON.stringify(channel.ghEnv)).not.toContain('ghp_channelchannel');
    await channel.dispose();
    await expect(readdir(dir)).rejects.toThrow();
  });

  it('answers only for the remote’s own protocol and host (a redirect never gets the token)', async () => {
    const channel = await openCredentialChannel(
      { username: 'x-access-token', password: 'ghp_hostcheckhostcheck' },
      '127.0.0.1',
      'http://127.0.0.1:8123/owner/repo.git',
    );
    const helper = (channel.gitConfig.at(-1) as string).replace(/^credential\.helper=/, '');
    const ask = (input: string) => spawnSync(helper, ['get'], { input, encoding: 'utf8' }).stdout;
    expect(ask('protocol=http\nhost=127.0.0.1:8123\n\n')).toContain('password=ghp_hostcheckhostcheck');
    expect(ask('protocol=http\nhost=evil.invalid\n\n')).toBe('');
    expect(ask('protocol=https\nhost=127.0.0.1:8123\n\n')).toBe('');
    expect(ask('protocol=http\nhost=127.0.0.1\n\n')).toBe('');
    await channel.dispose();
  });

  it('clears the operator’s helpers so none of them stores the token', async () => {
    const channel = await openCredentialChannel({ username: 'u', password: 'p' }, undefined);
    expect(channel.gitConfig.slice(0, 2)).toEqual(['-c', 'credential.helper=']);
    await channel.dispose();
  });

  it('refuses credentials with a line break (they would forge helper answers)', async () => {
    await expect(
      openCredentialChannel({ username: 'u', password: 'p\nhost=evil' }, undefined),
    ).rejects.toThrow('line break');
  });
});
