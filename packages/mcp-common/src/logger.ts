// The server's own log. It always goes to stderr (fd 2): on stdio, stdout belongs to the protocol.
import { type Logger, pino } from 'pino';

export type { Logger };

export function createLogger(name: string, level = process.env.GROUNDWORK_LOG_LEVEL ?? 'info'): Logger {
  return pino({ name, level, base: { name } }, pino.destination({ fd: 2, sync: true }));
}
