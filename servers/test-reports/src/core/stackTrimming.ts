// Stacks are mostly frames of test frameworks, runtimes and reflection. Folding those leaves the frames
// of the project (test and code under test), which is what an agent has to read.

/** Frames that belong to frameworks, runtimes and tooling rather than the project. */
const NOISE_FRAMES: readonly RegExp[] = [
  // JVM (frames may carry a class loader or module prefix: `app//`, `java.base@17.0.9/`)
  /^\s*at (?:[\w.@-]+\/\/?)?(java\.|javax\.|jdk\.|sun\.|com\.sun\.)/,
  /^\s*at (?:[\w.@-]+\/\/?)?(org\.junit\.|junit\.framework\.|org\.testng\.|org\.apache\.maven\.surefire\.|org\.gradle\.|worker\.org\.gradle\.|org\.opentest4j\.|org\.assertj\.|org\.hamcrest\.|org\.mockito\.|net\.bytebuddy\.)/,
  /^\s*at (?:[\w.@-]+\/\/?)?(kotlin\.|kotlinx\.coroutines\.|scala\.|org\.scalatest\.|org\.spockframework\.|groovy\.lang\.|org\.codehaus\.groovy\.|org\.springframework\.test\.|com\.intellij\.|org\.eclipse\.jdt\.)/,
  // Node.js and JS test runners
  /^\s*at .*(node:internal|\(node:|\binternal\/|node_modules[\\/]|<anonymous>\)?$|processTicksAndRejections|new Promise \(<anonymous>\))/,
  /^\s*(at )?(async )?(Promise\.(all|then)|runMicrotasks|process\._tickCallback)/,
  // node:test writes frames without `at `
  /^\s*(async )?[\w$.<>]+ \((node:|internal\/)[^)]*\)$/,
  // Python
  /^\s*File ".*(site-packages|dist-packages|[\\/]lib[\\/]python\d|_pytest|pluggy|[\\/]unittest[\\/])/,
  // Go
  /^\s*(\/usr\/local\/go\/|\/usr\/lib\/go|.*[\\/]go[\\/]src[\\/](testing|runtime|reflect)[\\/]|testing\.tRunner|runtime\.goexit|created by testing\.)/,
  /^\s*(testing|runtime|reflect)\.[\w.()*]+\(/,
];

const FRAME = [
  /^\s*at \S.*$/, // Java, JS
  /^\s*(async )?[\w$.<>]+ \(\S+:\d+:\d+\)$/, // node:test (no `at `)
  /^\s*❯ \S.*:\d+:\d+$/, // vitest
  /^\s*File ".*", line \d+/, // Python
  /^\s*\/?\S+\.go:\d+( \+0x[0-9a-f]+)?$/, // Go goroutine dump
  /^\s*[\w./*()-]+\([^)]*\)$/, // Go function line in a goroutine dump
];
const ELIDED = /^\s*\.\.\. (\d+) (more|common frames omitted)$/;
const MAX_KEPT_FRAMES = 25;
const MAX_LINES = 80;

export interface TrimmedStack {
  stack: string;
  /** Frames left out: framework and runtime frames, plus what runners had already elided. */
  folded: number;
}

export function trimStack(stack: string): TrimmedStack {
  const lines = stack.split('\n');
  const kept: string[] = [];
  let folded = 0;
  let run = 0;
  let keptFrames = 0;
  let skipPythonSource = false;
  const closeRun = () => {
    if (run > 0) kept.push(`    … ${run} framework frame${run === 1 ? '' : 's'} folded`);
    run = 0;
  };
  for (const line of lines) {
    if (skipPythonSource) {
      skipPythonSource = false;
      if (/^\s{4,}\S/.test(line) && !FRAME.some((frame) => frame.test(line))) continue;
    }
    const elided = ELIDED.exec(line);
    if (elided !== null) {
      folded += Number(elided[1]);
      continue;
    }
    const isNoise = NOISE_FRAMES.some((noise) => noise.test(line));
    const isFrame = isNoise || FRAME.some((frame) => frame.test(line));
    if (isNoise || (isFrame && keptFrames >= MAX_KEPT_FRAMES)) {
      folded += 1;
      run += 1;
      skipPythonSource = /^\s*File "/.test(line);
      continue;
    }
    closeRun();
    if (isFrame) keptFrames += 1;
    if (kept.length < MAX_LINES) kept.push(line.trimEnd());
    else folded += isFrame ? 1 : 0;
  }
  closeRun();
  while (kept.length > 0 && kept[kept.length - 1]?.trim() === '') kept.pop();
  return { stack: kept.join('\n'), folded };
}

/** Whether a frame line is a framework or runtime frame (not the project's code). */
export function isNoiseFrame(line: string): boolean {
  return NOISE_FRAMES.some((noise) => noise.test(line));
}
