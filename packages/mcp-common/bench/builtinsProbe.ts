// Preloaded into a server under test: at exit it writes, as the last line of stderr, the Node built-in
// modules the process loaded (to show that a stdio start never loads the HTTP stack).
import { writeSync } from 'node:fs';

process.on('exit', () => {
  const builtins = (process as unknown as { moduleLoadList: string[] }).moduleLoadList
    .filter((entry) => entry.startsWith('NativeModule '))
    .map((entry) => entry.slice('NativeModule '.length));
  writeSync(2, `\n${JSON.stringify(builtins)}\n`);
});
