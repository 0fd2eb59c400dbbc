// A repository URL split into what may be shown and stored (no credentials) and what the transport needs.
import { maskSecrets } from '@groundwork/mcp-common/masking';

export interface RemoteUrl {
  /** As given; used for exactly the network calls that need it, never stored or shown. */
  withCredentials: string;
  /** Without user info: what goes into .git/config and reports. */
  clean: string;
  /** The token or password, when the URL carried one (for `gh`, which takes it from GH_TOKEN). */
  token?: string;
  /** Every form of the credentials in the URL, for redaction. */
  secrets: string[];
  /** A short name for directories and logs, e.g. `octo-demo`. */
  slug: string;
  /** `owner/repo` (or `host/owner/repo` off github.com) for `gh --repo`, when the URL names one. */
  ghRepo?: string;
}

class InvalidRepositoryUrlError extends Error {
  readonly code = 'INVALID_REPOSITORY_URL';
  constructor(shown: string, problem: string) {
    super(`Invalid argument 'repository_url': '${shown}' ${problem}`);
  }
}

const SCP_LIKE = /^([\w.-]+@)?([\w.-]+):(?!\/\/)(.+)$/;

export function parseRemoteUrl(given: string): RemoteUrl {
  const trimmed = given.trim();
  const scp = SCP_LIKE.exec(trimmed);
  if (scp !== null && !trimmed.includes('://')) {
    const repoPath = scp[3] ?? '';
    return {
      withCredentials: trimmed,
      clean: trimmed,
      secrets: [],
      slug: slugOf(repoPath),
      ...ghRepoOf(scp[2] ?? '', repoPath),
    };
  }
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new InvalidRepositoryUrlError(
      maskSecrets(trimmed),
      'is not a URL (use https://…, ssh://…, git@host:owner/repo or file://…).',
    );
  }
  if (!['https:', 'http:', 'ssh:', 'git:', 'file:'].includes(url.protocol)) {
    throw new InvalidRepositoryUrlError(
      maskSecrets(trimmed),
      `uses the unsupported scheme '${url.protocol}'.`,
    );
  }
  const token =
    url.password !== ''
      ? decodeURIComponent(url.password)
      : url.username !== '' && url.protocol.startsWith('http')
        ? decodeURIComponent(url.username)
        : undefined;
  const clean = new URL(url.href);
  if (clean.protocol !== 'ssh:') {
    clean.username = '';
    clean.password = '';
  } else clean.password = '';
  return {
    withCredentials: url.href,
    clean: clean.href,
    ...(token === undefined ? {} : { token }),
    secrets: [url.username, url.password, token].filter(
      (secret): secret is string => secret !== undefined && secret !== '',
    ),
    slug: slugOf(url.pathname),
    ...(url.protocol === 'file:' ? {} : ghRepoOf(url.hostname, url.pathname)),
  };
}

function slugOf(repoPath: string): string {
  const parts = repoPath
    .replace(/\.git\/?$/, '')
    .split('/')
    .filter((part) => part !== '');
  const slug = parts
    .slice(-2)
    .join('-')
    .replace(/[^A-Za-z0-9._-]/g, '-');
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
