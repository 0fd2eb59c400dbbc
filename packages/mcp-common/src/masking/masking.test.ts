import { describe, expect, it } from 'vitest';
import { findSecrets, maskAbsolutePaths, maskForClient, maskSecrets, maskValue } from './masking.js';

// Shapes only: none of these is a live credential.
const GITHUB_CLASSIC = `ghp_${'A1b2C3d4E5'.repeat(4)}`;
const GITHUB_FINE_GRAINED = `github_pat_11ABCDEFG0${'x1Y2z3'.repeat(8)}`;
const ANTHROPIC = `sk-ant-api03-${'AbCdEf123_'.repeat(4)}`;
const OPENAI_PROJECT = `sk-proj-${'Zz9Yy8Xx7W'.repeat(4)}`;
const OPENAI_LEGACY = `sk-${'a1B2c3D4e5'.repeat(4)}`;
const AWS_KEY_ID = 'AKIAIOSFODNN7EXAMPLE';
const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const SLACK_BOT = 'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx';
const SLACK_WEBHOOK = 'https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX';
const PEM = [
  '-----BEGIN RSA PRIVATE KEY-----',
  'MIIEowIBAAKCAQEA1c7+9z5Pad7OejecsQ0bu3aozN3tihPmljnnudb9G3HECdnH',
  '-----END RSA PRIVATE KEY-----',
].join('\n');

describe('maskSecrets', () => {
  it.each([
    ['a GitHub classic token', GITHUB_CLASSIC],
    ['a GitHub fine-grained token', GITHUB_FINE_GRAINED],
    ['an Anthropic key', ANTHROPIC],
    ['an OpenAI project key', OPENAI_PROJECT],
    ['an OpenAI legacy key', OPENAI_LEGACY],
    ['an AWS access key id', AWS_KEY_ID],
    ['a Slack bot token', SLACK_BOT],
    ['a Slack webhook', SLACK_WEBHOOK],
    ['a PEM private key', PEM],
  ])('masks %s', (_kind, secret) => {
    const masked = maskSecrets(`before ${secret} after`);
    expect(masked).not.toContain(secret);
    expect(masked).toContain('***');
    expect(masked).toMatch(/^before .*after$/s);
  });

  it('masks an AWS secret access key and keeps its name', () => {
    const masked = maskSecrets(`aws_secret_access_key = ${AWS_SECRET}`);
    expect(masked).not.toContain(AWS_SECRET);
    expect(masked).toContain('aws_secret_access_key');
  });

  it('masks URL user-info and keeps the rest of the URL', () => {
    expect(maskSecrets('cannot reach postgres://bob:hunter2@db.internal:5432/app')).toBe(
      'cannot reach postgres://***@db.internal:5432/app',
    );
  });

  it('masks token=, password= and secret= values, in query strings and assignments', () => {
    expect(maskSecrets('GET https://api.example.com/v1/items?token=abc123&page=2')).toBe(
      'GET https://api.example.com/v1/items?token=***&page=2',
    );
    expect(maskSecrets('password=correct-horse secret: s3cr3t')).toBe('password=*** secret: ***');
    expect(maskSecrets('api_key=XYZ access_token=QQQ')).toBe('api_key=*** access_token=***');
  });

  it('masks credentials in JSON text', () => {
    expect(maskSecrets('{"user":"bob","password": "hunter2","token":"abc"}')).toBe(
      '{"user":"bob","password": "***","token":"***"}',
    );
  });

  it('masks Bearer and Basic credentials', () => {
    expect(maskSecrets('Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.abc')).toBe(
      'Authorization: Bearer ***',
    );
    expect(maskSecrets('Authorization: Basic dXNlcjpwYXNz')).toBe('Authorization: Basic ***');
  });

  it('leaves ordinary text alone', () => {
    const text = 'column "token_count" has 3 duplicates; see https://example.com/docs/keys.html';
    expect(maskSecrets(text)).toBe(text);
  });
});

describe('maskAbsolutePaths', () => {
  it('reduces POSIX and Windows absolute paths to their file name', () => {
    expect(maskAbsolutePaths("ENOENT: no such file or directory, open '/home/alice/work/data.csv'")).toBe(
      "ENOENT: no such file or directory, open 'data.csv'",
    );
    expect(maskAbsolutePaths('cannot read C:\\Users\\alice\\keys\\id_rsa now')).toBe(
      'cannot read id_rsa now',
    );
  });

  it('keeps relative paths, globs and URLs intact', () => {
    const text =
      'read data/people.csv and ./sub/x.json, searched **/TEST-*.xml and **/surefire-reports/**, see https://example.com/a/b/c.txt or file:///etc/hosts';
    expect(maskAbsolutePaths(text)).toBe(text);
  });
});

describe('maskForClient', () => {
  it('masks credentials and absolute paths together', () => {
    const message = maskForClient(
      'could not open /home/alice/secret/config.yml with token=abc123 via https://bob:hunter2@example.com/x',
    );
    expect(message).toBe('could not open config.yml with token=*** via https://***@example.com/x');
  });
});

describe('maskForClient with what the client sent', () => {
  it('echoes a path the client sent verbatim, and still masks server-side paths around it', () => {
    const message =
      "Path '/srv/exports/users.csv' is outside; the server looked in /srv/data/groundwork/root";
    expect(maskForClient(message, { file: '/srv/exports/users.csv' })).toBe(
      "Path '/srv/exports/users.csv' is outside; the server looked in root",
    );
    expect(maskForClient(message)).toBe("Path 'users.csv' is outside; the server looked in root");
  });

  it('leaves client text that merely looks like a path alone, wherever it sits in the arguments', () => {
    const args = { rows: [{ route: '/api/v1/users' }], pattern: 'C:\\Users\\x\\y.txt' };
    expect(maskForClient("no row matches '/api/v1/users' nor 'C:\\Users\\x\\y.txt'", args)).toBe(
      "no row matches '/api/v1/users' nor 'C:\\Users\\x\\y.txt'",
    );
  });

  it('masks a server path that only starts with what the client sent', () => {
    expect(maskForClient("cannot open '/srv/data/secret.txt'", { path: '/srv/data' })).toBe(
      "cannot open 'secret.txt'",
    );
  });

  it('still masks secrets inside what the client sent', () => {
    const sent = `/repo?token=abc123/x`;
    expect(maskForClient(`Path '${sent}' does not exist.`, { path: sent })).toBe(
      "Path '/repo?token=***' does not exist.",
    );
  });
});

describe('maskValue', () => {
  it('masks every string inside nested arrays and objects, keeping other values', () => {
    expect(
      maskValue({ query: `key ${GITHUB_CLASSIC}`, limit: 5, nested: [{ url: 'https://u:p@h.example/x' }] }),
    ).toEqual({
      query: 'key ***',
      limit: 5,
      nested: [{ url: 'https://***@h.example/x' }],
    });
  });

  it('masks a string under a credential-named key whatever its shape', () => {
    expect(maskValue({ user: 'bob', password: 'hunter2', apiKey: 'k', accessToken: 't', tokens: 3 })).toEqual(
      {
        user: 'bob',
        password: '***',
        apiKey: '***',
        accessToken: '***',
        tokens: 3,
      },
    );
  });
});

describe('findSecrets', () => {
  it('reports each token with its kind and position, previewed not revealed', () => {
    const text = `a=${AWS_KEY_ID}\nb=${GITHUB_CLASSIC}`;
    const findings = findSecrets(text);
    expect(findings.map((finding) => finding.kind)).toEqual(['AWS access key id', 'GitHub token']);
    expect(findings[0]?.index).toBe(2);
    for (const finding of findings) {
      expect(finding.masked).toContain('***');
      expect(text).not.toContain(finding.masked);
    }
  });
});
