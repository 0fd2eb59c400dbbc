import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';

describe('createLogger', () => {
  it('refuses a level pino does not know, naming the variable it came from', () => {
    expect(() => createLogger('t', 'verbose')).toThrow(
      /Unknown log level 'verbose' \(GROUNDWORK_LOG_LEVEL\)/,
    );
  });

  // pino loads on the first message at or above the level; what came before it is written, in order, after.
  it('writes the messages logged before pino loaded, in order, and none below the level', () => {
    const logger = fileURLToPath(new URL('./logger.ts', import.meta.url));
    const script = `
      const { createLogger } = await import(${JSON.stringify(logger)});
      const log = createLogger('t', 'info');
      log.debug('hidden');
      log.info('first');
      log.warn({ n: 2 }, 'second');
      log.error('third');
    `;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    expect(run.status).toBe(0);
    const lines = run.stderr
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { msg: string; level: number; n?: number });
    expect(lines.map((line) => [line.level, line.msg])).toEqual([
      [30, 'first'],
      [40, 'second'],
      [50, 'third'],
    ]);
    expect(lines[1]?.n).toBe(2);
  });
});
