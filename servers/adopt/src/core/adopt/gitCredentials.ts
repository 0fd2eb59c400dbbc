// Hands the token from `repository_url` to git and gh without putting it in any argument list or
// environment: it sits in 0600 files in a private 0700 directory, read by a credential helper (git) and a
// private configuration directory (gh). The directory exists only while git or gh talk to the remote (never
// while repository code runs), is removed afterwards, and is registered with the child-process watchdog so
// a SIGKILLed server leaves no token on disk either. The helper answers only for the URL's own protocol and
// host, so a redirect (an `insteadOf`, say) never receives the token.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { removeIfServerDies } from '@groundwork/mcp-common/childProcess';

export interface CredentialChannel {
  /** `-c` settings for every git call: only this channel answers for credentials, and nothing stores them. */
  gitConfig: string[];
  /** Environment for gh: a private configuration directory holding the token, when there is one. */
  ghEnv: Record<string, string>;
  /** Removes the private directory; safe to call twice. */
  dispose(): Promise<void>;
}

// `get` answers from the files beside the script, and only when git asks for the expected protocol and host;
// `store`/`erase` do nothing, so git never saves the token. printf and read are shell builtins, so the values
// never appear in a process's argument list.
const HELPER = `#!/bin/sh
protocol= host=
while IFS= read -r line; do
  case "$line" in
    protocol=*) protocol=\${line#protocol=} ;;
    host=*) host=\${line#host=} ;;
  esac
done
[ "$1" = get ] || exit 0
dir=$(dirname "$0")
[ "$protocol" = "$(cat "$dir/protocol")" ] && [ "$host" = "$(cat "$dir/host")" ] || exit 0
printf 'username=%s\\npassword=%s\\n' "$(cat "$dir/username")" "$(cat "$dir/password")"
`;

// The empty value clears the operator's helpers for this call, so none of them (a `store` helper, say)
// ever sees, and saves, the token from the URL.
const ONLY_THIS_HELPER = ['-c', 'credential.helper=', '-c', 'core.askPass='];

/**
 * A channel for `credentials`, answering git only for `remote` (the clean URL: its protocol and host, port
 * included, as git's credential protocol names them).
 */
export async function openCredentialChannel(
  credentials: { username: string; password: string } | undefined,
  host: string | undefined,
  remote?: string,
): Promise<CredentialChannel> {
  if (credentials === undefined) {
    return { gitConfig: [], ghEnv: {}, dispose: async () => {} };
  }
  for (const value of [credentials.username, credentials.password]) {
    if (/[\0\r\n]/.test(value))
      throw new Error("Invalid argument 'repository_url': the credentials contain a line break.");
  }
  const target = remote === undefined ? undefined : new URL(remote);
  // mkdtemp creates the directory with mode 0700.
  const dir = await mkdtemp(path.join(tmpdir(), 'groundwork-credentials-'));
  const forget = removeIfServerDies(dir);
  let disposed = false;
  const dispose = async () => {
    if (disposed) return;
    disposed = true;
    await rm(dir, { recursive: true, force: true });
    forget();
  };
  try {
    const write = (name: string, content: string, mode: number) =>
      writeFile(path.join(dir, name), content, { mode, flag: 'wx' });
    await write('username', credentials.username, 0o600);
    await write('password', credentials.password, 0o600);
    await write('protocol', target?.protocol.replace(/:$/, '') ?? 'https', 0o600);
    await write('host', target?.host ?? host ?? 'github.com', 0o600);
    await write('helper', HELPER, 0o700);
    const ghDir = path.join(dir, 'gh');
    await mkdir(ghDir, { mode: 0o700 });
    await writeFile(
      path.join(ghDir, 'hosts.yml'),
      `${JSON.stringify(host ?? 'github.com')}:\n    oauth_token: ${JSON.stringify(credentials.password)}\n    user: ${JSON.stringify(credentials.username)}\n    git_protocol: https\n`,
      { mode: 0o600, flag: 'wx' },
    );
    return {
      gitConfig: [...ONLY_THIS_HELPER, '-c', `credential.helper=${path.join(dir, 'helper')}`],
      ghEnv: { GH_CONFIG_DIR: ghDir },
      dispose,
    };
  } catch (error) {
    await dispose();
    throw error;
  }
}

/** The channel for a checked remote URL (none for local remotes and URLs without credentials). */
export function channelFor(
  remote: { credentials?: { username: string; password: string }; host?: string; clean: string } | undefined,
): Promise<CredentialChannel> {
  return openCredentialChannel(remote?.credentials, remote?.host, remote?.clean);
}

/** Settings for every git call: no hooks, no fsmonitor, no `ext::` helper that runs commands. */
export const GIT_HARDENING: readonly string[] = [
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'protocol.ext.allow=never',
  '-c',
  'submodule.recurse=false',
];
