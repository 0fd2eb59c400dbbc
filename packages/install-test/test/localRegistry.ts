// A throwaway npm registry: verdaccio on loopback with its storage in a temporary folder. @groundwork/*
// exists only here (never fetched from the public registry); every other package is proxied from the
// registry npm is configured with, so third-party dependencies install as they would for a user.
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { runServer } from 'verdaccio';

export interface LocalRegistry {
  url: string;
  /** An npmrc with this registry and a publish token for it. */
  npmrc: string;
  close(): Promise<void>;
}

export async function startLocalRegistry(dir: string): Promise<LocalRegistry> {
  await mkdir(path.join(dir, 'storage'), { recursive: true });
  const upstream = execFileSync('npm', ['config', 'get', 'registry'], { encoding: 'utf8' }).trim();
  const config = path.join(dir, 'config.yaml');
  await writeFile(
    config,
    [
      'storage: ./storage',
      'auth:',
      '  htpasswd:',
      '    file: ./htpasswd',
      'uplinks:',
      '  upstream:',
      `    url: ${upstream}`,
      'packages:',
      "  '@groundwork/*':",
      '    access: $all',
      '    publish: $authenticated',
      "  '**':",
      '    access: $all',
      '    publish: $authenticated',
      '    proxy: upstream',
      'log: { type: stdout, format: pretty, level: error }',
      '',
    ].join('\n'),
  );
  const server = await runServer(config);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}/`;
  // The registry's user API gives a token, as `npm adduser` would.
  const response = await fetch(`${url}-/user/org.couchdb.user:release`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'release', password: 'release-password' }),
  });
  if (!response.ok) throw new Error(`verdaccio refused the test user: ${response.status}`);
  const { token } = (await response.json()) as { token: string };
  const npmrc = path.join(dir, 'npmrc');
  await writeFile(npmrc, `registry=${url}\n//127.0.0.1:${port}/:_authToken=${token}\n`);
  return {
    url,
    npmrc,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
