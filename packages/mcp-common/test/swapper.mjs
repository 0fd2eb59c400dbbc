// Another process that keeps replacing one directory entry, as a hostile tree would. It prints "swapping" once
// it has swapped 100 times, and on SIGTERM prints "swapped <count>" and exits.
//   node swapper.mjs <slot> <a> <b>             renames a fresh hard link to <a>, then to <b>, onto <slot>
//   node swapper.mjs --symlink <slot> <a> <b>   the same with symbolic links whose contents are <a> and <b>
//   node swapper.mjs --directory <slot> <link>  moves the directory <slot> aside, puts a symbolic link to <link>
//                                               in its place, then moves the directory back
import { linkSync, renameSync, symlinkSync, unlinkSync } from 'node:fs';

const mode = process.argv[2]?.startsWith('--') ? process.argv[2] : '--hard-link';
const [slot, first, second] = process.argv.slice(mode === '--hard-link' ? 2 : 3);
const spare = `${slot}.swapping`;
let swaps = 0;

function swapOnce() {
  if (mode === '--directory') {
    renameSync(slot, spare);
    symlinkSync(first, slot);
    unlinkSync(slot);
    renameSync(spare, slot);
    return;
  }
  const target = swaps % 2 === 0 ? first : second;
  if (mode === '--symlink') symlinkSync(target, spare);
  else linkSync(target, spare);
  renameSync(spare, slot);
}

function swapBatch() {
  for (let round = 0; round < 50; round += 1) {
    swapOnce();
    swaps += 1;
    if (swaps === 100) process.stdout.write('swapping\n');
  }
  // Between batches the event loop runs, so SIGTERM is heard.
  setImmediate(swapBatch);
}

process.on('SIGTERM', () => {
  process.stdout.write(`swapped ${swaps}\n`, () => process.exit(0));
});
swapBatch();
