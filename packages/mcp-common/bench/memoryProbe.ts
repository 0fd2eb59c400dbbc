// Preloaded (with --expose-gc) into a server under test: on an IPC 'measure' message it collects
// garbage until the heap settles and answers with the process's memory use.
const collect = (globalThis as { gc?: () => void }).gc;

process.on('message', (message) => {
  if (message !== 'measure' || collect === undefined || process.send === undefined) return;
  for (let round = 0; round < 6; round++) collect();
  const { heapUsed, rss } = process.memoryUsage();
  process.send({ heapUsed, rss });
});
// The IPC channel must not keep a server alive that would otherwise exit.
process.channel?.unref();
