// Another process that keeps replacing directory entries, as a hostile tree would. Its one argument is a JSON
// list of jobs, each swapped once per round (one process, so the test burns one core, not one per job):
//   { "slot": s, "hardLinks": [a, b] }  renames a fresh hard link to a, then to b, onto s
//   { "slot": s, "symlinks": [a, b] }   the same with symbolic links whose contents are a and b
//   { "slot": s, "folderTo": t }        moves the folder s aside, puts a symbolic link to t in its place, then
//                                       moves the folder back
// It prints "swapping" once every job has swapped 100 times, and on SIGTERM prints "swapped <rounds>" and exits.
import { linkSync, renameSync, symlinkSync, unlinkSync } from 'node:fs';

const jobs = JSON.parse(process.argv[2]);
let rounds = 0;

function swap(job) {
  const spare = `${job.slot}.swapping`;
  if (job.folderTo !== undefined) {
    renameSync(job.slot, spare);
    symlinkSync(job.folderTo, job.slot);
    unlinkSync(job.slot);
    renameSync(spare, job.slot);
    return;
  }
  const [first, second] = job.symlinks ?? job.hardLinks;
  const target = rounds % 2 === 0 ? first : second;
  if (job.symlinks !== undefined) symlinkSync(target, spare);
  else linkSync(target, spare);
  renameSync(spare, job.slot);
}

function swapBatch() {
  for (let batch = 0; batch < 50; batch += 1) {
    for (const job of jobs) swap(job);
    rounds += 1;
    if (rounds === 100) process.stdout.write('swapping\n');
  }
  // Between batches the event loop runs, so SIGTERM is heard.
  setImmediate(swapBatch);
}

process.on('SIGTERM', () => {
  process.stdout.write(`swapped ${rounds}\n`, () => process.exit(0));
});
swapBatch();
