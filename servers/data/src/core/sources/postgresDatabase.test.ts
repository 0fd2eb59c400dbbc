import { once } from 'node:events';
import net from 'node:net';
import { DomainError } from '@groundwork/mcp-common/domainError';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresDatabase } from './postgresDatabase.js';

// A "server" that accepts connections and never says a word: without a connect deadline pg waits for ever.
describe('openPostgresDatabase against a server that never answers', () => {
  let silent: net.Server;
  const held: net.Socket[] = [];
  let port: number;

  beforeAll(async () => {
    silent = net.createServer((socket) => held.push(socket));
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    port = (silent.address() as net.AddressInfo).port;
  });

  afterAll(() => {
    for (const socket of held) socket.destroy();
    silent.close();
  });

  it('gives up at its connect deadline with DATABASE_UNAVAILABLE naming the variable', async () => {
    const opening = openPostgresDatabase(`postgres://u:p@127.0.0.1:${port}/db`, 'PG_URL', 200);
    await expect(opening).rejects.toBeInstanceOf(DomainError);
    await expect(opening).rejects.toThrow(/PG_URL/);
    expect(held.length).toBeGreaterThan(0);
  });
});
