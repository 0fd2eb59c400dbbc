// Masks what must never reach a client or a log line: credentials, and the server's absolute paths.
// Pure and dependency-free so domain cores (e.g. a secret scanner) can use the same patterns.
import { echoOfClientText } from './clientEcho.js';

const MASK = '***';

/** Token shapes of well-known providers; each entry names what it detects. */
export const SECRET_PATTERNS: ReadonlyArray<{ kind: string; pattern: RegExp }> = [
  {
    kind: 'private key',
    pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g,
  },
  { kind: 'GitHub token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})\b/g },
  { kind: 'Anthropic API key', pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { kind: 'OpenAI API key', pattern: /\bsk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g },
  { kind: 'AWS access key id', pattern: /\b(?:AKIA|ASIA|AIDA|AROA)[0-9A-Z]{16}\b/g },
  {
    kind: 'AWS secret access key',
    pattern: /\b(aws_secret_access_key|secretAccessKey)(["']?\s*[:=]\s*["']?)[A-Za-z0-9/+=]{40}/gi,
  },
  { kind: 'Slack token', pattern: /\bxox[abprsec]-[A-Za-z0-9-]{10,}/g },
  { kind: 'Slack webhook', pattern: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/]+/g },
];

const URL_USER_INFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@?#]+@/gi;
// `name=value`, `name: value` and the JSON form `"name": "value"`.
const SECRET_ASSIGNMENT =
  /\b((?:access_|refresh_|id_|api_|auth_)?token|password|passwd|pwd|secret|client_secret|api_?key)(["']?\s*[=:]\s*["']?)([^\s&"',;]+)/gi;
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{4,}/g;
// A POSIX absolute path: not inside a URL or a glob (not preceded by a word character, ':', '/' or '*').
const POSIX_ABSOLUTE = /(?<![\w.:/~*-])\/(?:[^\s/'"`:,;()<>[\]{}|]+\/)*([^\s/'"`:,;()<>[\]{}|]*)/g;
const WINDOWS_ABSOLUTE = /\b[A-Za-z]:\\(?:[^\s\\'"`:,;()<>|]+\\)*([^\s\\'"`:,;()<>|]*)/g;

/** Replaces credentials with `***`, keeping enough shape that the reader knows what was there. */
export function maskSecrets(text: string): string {
  let masked = text;
  for (const { kind, pattern } of SECRET_PATTERNS) {
    masked = masked.replace(pattern, (_match, name?: string, separator?: string) =>
      kind === 'AWS secret access key' && name !== undefined ? `${name}${separator ?? '='}${MASK}` : MASK,
    );
  }
  return masked
    .replace(URL_USER_INFO, `$1${MASK}@`)
    .replace(SECRET_ASSIGNMENT, `$1$2${MASK}`)
    .replace(BEARER, `$1 ${MASK}`);
}

/** Reduces absolute paths to their last segment, so a message never reveals the server's layout. */
export function maskAbsolutePaths(text: string): string {
  return maskPathsOutside(text, []);
}

/**
 * What a client may read of a failure: secrets and absolute paths masked. Text the client sent itself
 * (`sentByClient`: the call's arguments, any shape) is echoed as sent, secrets still masked: a path the client
 * wrote reveals nothing, and cutting it to its last segment would name a different file.
 */
export function maskForClient(text: string, sentByClient?: unknown): string {
  const masked = maskSecrets(text);
  if (sentByClient === undefined) return maskPathsOutside(masked, []);
  return maskPathsOutside(masked, spansOf(masked, pathLikeStrings(sentByClient, text.length)));
}

type Span = readonly [start: number, end: number];

/** Masks every absolute path except those lying wholly inside one of the `kept` spans. */
function maskPathsOutside(text: string, kept: readonly Span[]): string {
  const keep = (match: string, offset: number) =>
    kept.some(([start, end]) => offset >= start && offset + match.length <= end);
  // The Windows pass runs on the POSIX pass's output, whose offsets differ: find its spans again there.
  const posix = text.replace(POSIX_ABSOLUTE, (match: string, last: string, offset: number) =>
    match === '/' || keep(match, offset) ? match : last || '.',
  );
  const keptAfter =
    kept.length === 0
      ? kept
      : spansOf(
          posix,
          kept.map(([start, end]) => text.slice(start, end)),
        );
  return posix.replace(WINDOWS_ABSOLUTE, (match: string, last: string, offset: number) =>
    keptAfter.some(([start, end]) => offset >= start && offset + match.length <= end) ? match : last || '.',
  );
}

const MAX_CLIENT_STRINGS = 256;
const MAX_DEPTH = 8;

/**
 * The strings inside a client's arguments that could be mistaken for a path, secrets masked, each whole and as a
 * message echoes it (echoOfClientText); one longer than the message (`maxLength`) cannot occur in it and is
 * skipped unread.
 */
function pathLikeStrings(value: unknown, maxLength: number, found: string[] = [], depth = 0): string[] {
  if (found.length >= MAX_CLIENT_STRINGS || depth > MAX_DEPTH) return found;
  if (typeof value === 'string') {
    const echoed = echoOfClientText(value);
    for (const form of echoed === value ? [value] : [value, echoed]) {
      if (form.length <= maxLength && (form.includes('/') || form.includes('\\')))
        found.push(maskSecrets(form));
    }
  } else if (Array.isArray(value)) {
    for (const item of value) pathLikeStrings(item, maxLength, found, depth + 1);
  } else if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) pathLikeStrings(item, maxLength, found, depth + 1);
  }
  return found;
}

/** Where each of `needles` occurs in `text`. */
function spansOf(text: string, needles: readonly string[]): Span[] {
  const spans: Span[] = [];
  for (const needle of needles) {
    if (needle.length === 0) continue;
    for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) {
      spans.push([at, at + needle.length]);
    }
  }
  return spans;
}

export interface SecretFinding {
  kind: string;
  index: number;
  masked: string;
}

/** Where `text` holds a known token shape, each reported masked (first and last few characters kept). */
export function findSecrets(text: string): SecretFinding[] {
  const findings: SecretFinding[] = [];
  for (const { kind, pattern } of SECRET_PATTERNS) {
    for (const match of text.matchAll(new RegExp(pattern.source, pattern.flags))) {
      findings.push({ kind, index: match.index ?? 0, masked: preview(match[0]) });
    }
  }
  return findings.sort((a, b) => a.index - b.index);
}

function preview(secret: string): string {
  if (secret.startsWith('-----BEGIN')) return '-----BEGIN … PRIVATE KEY-----';
  return secret.length <= 8 ? MASK : `${secret.slice(0, 4)}${MASK}${secret.slice(-2)}`;
}

/** Masks every string inside a value (for logging a failed call's arguments). */
export function maskValue(value: unknown): unknown {
  if (typeof value === 'string') return maskSecrets(value);
  if (Array.isArray(value)) return value.map(maskValue);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      // A value under a credential's name is masked whatever its shape (`{ password: 'hunter2' }`).
      Object.entries(value).map(([key, inner]) => [
        key,
        SECRET_KEY.test(key) && typeof inner === 'string' ? MASK : maskValue(inner),
      ]),
    );
  }
  return value;
}

const SECRET_KEY = /(?:token|password|passwd|pwd|secret|api_?key|authorization|credentials?)$/i;
