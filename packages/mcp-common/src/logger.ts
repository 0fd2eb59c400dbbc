// The server's own log. It always goes to stderr (fd 2): on stdio, stdout belongs to the protocol.
//
// pino is loaded off the start-up path: evaluating it and opening its destination is a good part of a
// cold start, and a server that logs nothing at its level never needs it. A message at or above the level
// loads it; what is logged before it has loaded is kept (bounded) and written, in order, once it has.
import type { Logger as PinoLogger } from 'pino';

type LogFn = (objectOrMessage: unknown, message?: string) => void;

/** What servers log through (pino's methods of the same names; a pino logger is one). */
export interface Logger {
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
}

type Method = keyof Logger;

const LEVELS: Record<string, number> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Number.POSITIVE_INFINITY,
};

/** Messages kept while pino loads; beyond this a burst is dropped (it loads in a few milliseconds). */
const MAX_PENDING = 1000;

export function createLogger(name: string, level = process.env.GROUNDWORK_LOG_LEVEL ?? 'info'): Logger {
  const threshold = LEVELS[level];
  if (threshold === undefined) {
    throw new Error(
      `Unknown log level '${level}' (GROUNDWORK_LOG_LEVEL): use ${Object.keys(LEVELS).join(', ')}.`,
    );
  }
  let pino: PinoLogger | undefined;
  let pending: Array<{ method: Method; objectOrMessage: unknown; message: string | undefined }> = [];
  let loading: Promise<void> | undefined;
  const preload = () => {
    loading ??= import('pino').then(({ pino: create }) => {
      const made = create({ name, level, base: { name } }, create.destination({ fd: 2, sync: true }));
      // Their times are when pino loaded, a few milliseconds late.
      for (const { method, objectOrMessage, message } of pending)
        write(made, method, objectOrMessage, message);
      pending = [];
      pino = made;
    });
    return loading;
  };
  const at =
    (method: Method): LogFn =>
    (objectOrMessage, message) => {
      if ((LEVELS[method] as number) < threshold) return;
      if (pino !== undefined) {
        write(pino, method, objectOrMessage, message);
        return;
      }
      if (pending.length < MAX_PENDING) pending.push({ method, objectOrMessage, message });
      void preload();
    };
  const logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  preloaders.set(logger, preload);
  return logger;
}

const preloaders = new WeakMap<Logger, () => Promise<void>>();

/** Loads pino now rather than at the first message (servers call it once they have started). */
export function preloadLogger(logger: Logger): void {
  void preloaders.get(logger)?.();
}

// Exactly the arguments given: pino reads a second argument as the message of an object, or as a value to
// format into a message.
function write(pino: PinoLogger, method: Method, objectOrMessage: unknown, message: string | undefined) {
  if (message === undefined) pino[method](objectOrMessage);
  else pino[method](objectOrMessage, message);
}
