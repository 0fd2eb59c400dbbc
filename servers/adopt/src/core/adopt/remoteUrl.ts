// A repository URL checked before git sees it, and split into what may be shown and stored (no credentials)
// and the credentials the transport needs (handed to git through a private channel, see gitCredentials.ts).
// Accepted: https:// (http:// to this machine only), ssh://, scp-like user@host:path, and file:// or a
// local path — the last two only under the allowed directories (checked by the caller). Anything else
// (ext::, fd::, other remote helpers, option-like text) is refused here.
import { DomainError } from '@groundwork/mcp-common/domainError';
import { maskSecrets } from '@groundwork/mcp-common/masking';

export interface RemoteUrl {
  /** Where git fetches from and pushes to: no user info for https, the real path for local remotes. */
  clean: string;
  /** `network` remotes go through the credential channel; `local` ones are paths under the allowed dirs. */
  kind: 'network' | 'local';
  /** For `local`: the path as given (the caller confines it and swaps in the real path). */
  localPath?: string;
  /** From the URL's user info (https only), for the credential helper and `gh`. */
  credentials?: { username: string; password: string };
  /** Every form of the credentials in the URL, for redaction. */
  secrets: string[];
  /** A short name for directories and logs, e.g. `octo-demo`. */
  slug: string;
  /** `owner/repo` (or `host/owner/repo` off github.com) for `gh --repo`, when the URL names one. */
  ghRepo?: string;
  /** The host, for gh's configuration (`github.com` unless the URL names another). */
  host?: string;
}

export class InvalidRepositoryUrlError extends DomainError {
  constructor(shown: string, problem: string) {
    super('INVALID_REPOSITORY_URL', `Invalid argument 'repository_url': '${shown}' ${problem}`);
  }
}

const HOST = /^[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$/;
const SCP_LIKE = /^(?:([A-Za-z0-9._-]+)@)?([^/:@\s]+):(?!\/\/)(.+)$/;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
const ACCEPTED =
  'use https://…, ssh://…, git@host:owner/repo, or file://… / a path under the allowed directories';

export function parseRemoteUrl(given: string): RemoteUrl {
  const trimmed = given.trim();
  const refuse = (problem: string): never => {
    throw new InvalidRepositoryUrlError(maskSecrets(trimmed), problem);
  };
  if (trimmed === '') refuse(`is empty (${ACCEPTED}).`);
  if (trimmed.startsWith('-')) refuse(`starts with '-', which git would read as an option (${ACCEPTED}).`);
  if ([...trimmed].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f))
    refuse('contains control characters.');
  if (trimmed.includes('::')) refuse(`names a git remote helper ('…::'), which is never run (${ACCEPTED}).`);
  if (trimmed.startsWith('/') || trimmed.startsWith('./') || trimmed.startsWith('../')) {
    return local(trimmed, trimmed);
  }
  if (!trimmed.includes(':')) return local(trimmed, trimmed);
  if (!trimmed.includes('://')) {
    const scp = SCP_LIKE.exec(trimmed);
    if (scp === null) refuse(`is not a repository URL (${ACCEPTED}).`);
    const [, user, host = '', repoPath = ''] = scp as RegExpExecArray;
    if (!HOST.test(host)) refuse(`has an invalid host '${host}'.`);
    if (repoPath.startsWith('-')) refuse("has a path starting with '-'.");
    if (user?.startsWith('-')) refuse("has a user starting with '-'.");
    return {
      clean: trimmed,
      kind: 'network',
      secrets: [],
      slug: slugOf(repoPath),
      host,
      ...ghRepoOf(host, repoPath),
    };
  }
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return refuse(`is not a URL (${ACCEPTED}).`);
  }
  if (url.protocol === 'file:') {
    if (url.host !== '' && url.host !== 'localhost')
      refuse('names a host in a file:// URL; give a local path.');
    return local(decodeURIComponent(url.pathname), trimmed);
  }
  const loopbackHttp = url.protocol === 'http:' && LOOPBACK.has(url.hostname);
  if (url.protocol !== 'https:' && url.protocol !== 'ssh:' && !loopbackHttp) {
    refuse(
      url.protocol === 'http:'
        ? 'uses plain http:// to another machine, which would send credentials in the clear; use https://.'
        : `uses the unsupported scheme '${url.protocol}' (${ACCEPTED}).`,
    );
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const username = safeDecode(url.username);
  const password = safeDecode(url.password);
  // git decodes both before handing them to ssh, so `%2D` is a '-' there: check what git will use.
  if (host === '' || host.startsWith('-') || safeDecode(host).startsWith('-')) refuse('has no valid host.');
  if (username.startsWith('-')) refuse("has a user starting with '-'.");
  const secrets = [url.username, url.password, username, password].filter((secret) => secret !== '');
  const clean = new URL(url.href);
  clean.password = '';
  if (clean.protocol !== 'ssh:') clean.username = '';
  // An https user alone is a token (x-access-token style URLs put it in the password, others in the user).
  const credentials =
    url.protocol === 'ssh:' || (username === '' && password === '')
      ? undefined
      : password === ''
        ? { username: 'x-access-token', password: username }
        : { username, password };
  if (url.protocol === 'ssh:' && password !== '')
    refuse('carries a password in an ssh:// URL; use an ssh key.');
  return {
    clean: clean.href,
    kind: 'network',
    ...(credentials === undefined ? {} : { credentials }),
    secrets,
    slug: slugOf(url.pathname),
    host,
    ...ghRepoOf(host, url.pathname),
  };
}

function local(localPath: string, shown: string): RemoteUrl {
  return {
    clean: localPath,
    kind: 'local',
    localPath,
    secrets: [],
    slug: slugOf(shown.replace(/^file:\/\//, '')),
  };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function slugOf(repoPath: string): string {
  const parts = repoPath
    .replace(/\.git\/?$/, '')
    .split('/')
    .filter((part) => part !== '');
  const slug = parts
    .slice(-2)
    .join('-')
    .replace(/[^A-Za-z0-9._-]/g, '-')
    .replace(/^[.-]+/, '');
  return slug === '' ? 'repository' : slug;
}

function ghRepoOf(host: string, repoPath: string): { ghRepo?: string } {
  const parts = repoPath
    .replace(/\.git\/?$/, '')
    .split('/')
    .filter((part) => part !== '');
  if (parts.length < 2) return {};
  const ownerRepo = parts.slice(-2).join('/');
  return { ghRepo: host === 'github.com' ? ownerRepo : `${host}/${ownerRepo}` };
}

/** Masks credentials in any text that might echo a URL or a token. */
export function redactor(secrets: ReadonlyArray<string | undefined>): (text: string) => string {
  const known = secrets.filter((secret): secret is string => secret !== undefined && secret.length >= 4);
  return (text) => {
    let masked = text;
    for (const secret of known) masked = masked.split(secret).join('***');
    return maskSecrets(masked);
  };
}
