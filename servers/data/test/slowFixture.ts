// A gzip CSV big enough that scanning it takes seconds, generated (not checked in) under the fixtures
// directory so the server may read it; the transport contract cancels a call on it.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROWS = 3_000_000;

/** The fixture's path relative to test/fixtures. */
export function ensureSlowFixture(): string {
  const relative = 'generated/slow.csv.gz';
  const file = fileURLToPath(new URL(`./fixtures/${relative}`, import.meta.url));
  if (existsSync(file)) return relative;
  mkdirSync(path.dirname(file), { recursive: true });
  const lines = ['id,name,bucket'];
  for (let i = 0; i < ROWS; i++) lines.push(`${i},"name ${i % 100_000}",${i % 7}`);
  writeFileSync(file, gzipSync(lines.join('\n'), { level: 1 }));
  return relative;
}
