// Generated stacks of every runtime, and stack trimming as it was before JVM frames were told apart without
// a regex (every line through the patterns, kept verbatim): what the trimming and signature tests compare
// the present code against.

export const PATTERNS: readonly RegExp[] = [
  /^\s*at (?:[\w.@-]+\/\/?)?(java\.|javax\.|jdk\.|sun\.|com\.sun\.)/,
  /^\s*at (?:[\w.@-]+\/\/?)?(org\.junit\.|junit\.framework\.|org\.testng\.|org\.apache\.maven\.surefire\.|org\.gradle\.|worker\.org\.gradle\.|org\.opentest4j\.|org\.assertj\.|org\.hamcrest\.|org\.mockito\.|net\.bytebuddy\.)/,
  /^\s*at (?:[\w.@-]+\/\/?)?(kotlin\.|kotlinx\.coroutines\.|scala\.|org\.scalatest\.|org\.spockframework\.|groovy\.lang\.|org\.codehaus\.groovy\.|org\.springframework\.test\.|com\.intellij\.|org\.eclipse\.jdt\.)/,
  /^\s*at .*(node:internal|\(node:|\binternal\/|node_modules[\\/]|<anonymous>\)?$|processTicksAndRejections|new Promise \(<anonymous>\))/,
  /^\s*(at )?(async )?(Promise\.(all|then)|runMicrotasks|process\._tickCallback)/,
  /^\s*(async )?[\w$.<>]+ \((node:|internal\/)[^)]*\)$/,
  /^\s*File ".*(site-packages|dist-packages|[\\/]lib[\\/]python\d|_pytest|pluggy|[\\/]unittest[\\/])/,
  /^\s*(\/usr\/local\/go\/|\/usr\/lib\/go|.*[\\/]go[\\/]src[\\/](testing|runtime|reflect)[\\/]|testing\.tRunner|runtime\.goexit|created by testing\.)/,
  /^\s*(testing|runtime|reflect)\.[\w.()*]+\(/,
];
const FRAME = [
  /^\s*at \S.*$/,
  /^\s*(async )?[\w$.<>]+ \(\S+:\d+:\d+\)$/,
  /^\s*❯ \S.*:\d+:\d+$/,
  /^\s*File ".*", line \d+/,
  /^\s*\/?\S+\.go:\d+( \+0x[0-9a-f]+)?$/,
  /^\s*[\w./*()-]+\([^)]*\)$/,
];
const ELIDED = /^\s*\.\.\. (\d+) (more|common frames omitted)$/;

/** trimStack as it was, every line through the patterns. */
export function trimByPatterns(stack: string): { stack: string; folded: number } {
  const kept: string[] = [];
  let folded = 0;
  let run = 0;
  let keptFrames = 0;
  let skipPythonSource = false;
  const closeRun = () => {
    if (run > 0) kept.push(`    … ${run} framework frame${run === 1 ? '' : 's'} folded`);
    run = 0;
  };
  for (const line of stack.split('\n')) {
    if (skipPythonSource) {
      skipPythonSource = false;
      if (/^\s{4,}\S/.test(line) && !FRAME.some((frame) => frame.test(line))) continue;
    }
    const elided = ELIDED.exec(line);
    if (elided !== null) {
      folded += Number(elided[1]);
      continue;
    }
    const isNoise = PATTERNS.some((noise) => noise.test(line));
    const isFrame = isNoise || FRAME.some((frame) => frame.test(line));
    if (isNoise || (isFrame && keptFrames >= 25)) {
      folded += 1;
      run += 1;
      skipPythonSource = /^\s*File "/.test(line);
      continue;
    }
    closeRun();
    if (isFrame) keptFrames += 1;
    if (kept.length < 80) kept.push(line.trimEnd());
    else folded += isFrame ? 1 : 0;
  }
  closeRun();
  while (kept.length > 0 && kept[kept.length - 1]?.trim() === '') kept.pop();
  return { stack: kept.join('\n'), folded };
}

const INDENTS = ['\t', '    ', '', ' ', '\t\t', '\u00a0', '\v', '\f', '\u2003', '\ufeff', '  \t'];
const LOADERS = [
  '',
  '',
  '',
  'app//',
  'java.base@17.0.9/',
  'jdk.internal@21//',
  'a-b_c.d@e/',
  '@/',
  'x///',
  'app/ /',
  'app/',
];
const CLASSES = [
  ...['java.lang.reflect.Method.invoke(Method.java:580)', 'javax.servlet.Filter.do(Filter.java:1)'],
  ...[
    'jdk.internal.reflect.X.invoke(X.java:3)',
    'sun.reflect.Y.z(Y.java:4)',
    'com.sun.proxy.$Proxy1.a(Unknown Source)',
  ],
  ...['org.junit.runners.Parent.run(Parent.java:9)', 'junit.framework.TestCase.run(TestCase.java:1)'],
  ...[
    'org.testng.T.run(T.java:2)',
    'org.apache.maven.surefire.booter.ForkedBooter.main(ForkedBooter.java:495)',
  ],
  ...[
    'org.gradle.api.X.y(X.java:5)',
    'worker.org.gradle.process.W.run(W.java:6)',
    'org.opentest4j.A.b(A.java:7)',
  ],
  ...['org.assertj.core.C.d(C.java:8)', 'org.hamcrest.M.m(M.java:9)', 'org.mockito.I.i(I.java:1)'],
  ...['net.bytebuddy.B.b(B.java:2)', 'kotlin.coroutines.K.k(K.kt:3)', 'kotlinx.coroutines.D.d(D.kt:4)'],
  ...[
    'scala.Function0.apply(Function0.scala:5)',
    'org.scalatest.S.s(S.scala:6)',
    'org.spockframework.R.r(R.java:7)',
  ],
  ...['groovy.lang.Closure.call(Closure.java:8)', 'org.codehaus.groovy.G.g(G.java:9)'],
  ...[
    'org.springframework.test.context.T.t(T.java:1)',
    'com.intellij.rt.J.main(J.java:2)',
    'org.eclipse.jdt.E.e(E.java:3)',
  ],
  // project code, and names a prefix test could mistake for noise
  ...['com.acme.cart.CartTest.total(CartTest.java:38)', 'com.acme.Service.handle(Service.java:12)'],
  ...[
    'javaX.Foo.bar(Foo.java:1)',
    'jav.Foo.bar(Foo.java:1)',
    'org.junitx.A.b(A.java:1)',
    'orgjunit.A.b(A.java:1)',
  ],
  ...[
    'kotlinx.serialization.S.s(S.kt:1)',
    'sunny.Day.go(Day.java:1)',
    'com.sunny.X.y(X.java:1)',
    'scalaz.Z.z(Z.scala:1)',
  ],
  ...[
    'my.java.Thing.x(Thing.java:1)',
    'CartTest.prüftRabatt(CartTest.java:38)',
    '',
    ' java.lang.X.y(X.java:1)',
  ],
];
const OTHER_LINES = [
  'java.lang.AssertionError: expected:<1> but was:<2>',
  'Caused by: java.io.IOException: disk full',
  '... 42 more',
  '\t... 7 common frames omitted',
  '...  3 more',
  'at applyCoupon (/repo/lib/coupon.js:28:11)',
  'at Promise.then.completed (/repo/node_modules/jest-circus/build/utils.js:298:28)',
  'at new Promise (<anonymous>)',
  'at processTicksAndRejections (node:internal/process/task_queues:95:5)',
  'at async Promise.all (index 0)',
  'at Object.<anonymous> (/repo/test/a.test.js:3:7)',
  'at /repo/src/internal/x.js:1:2',
  'at /repo/src/xinternal/x.js:1:2',
  'at foo (file:///repo/a.mjs:1:2)',
  'TestContext.<anonymous> (file:///repo/t.test.js:5:9)',
  'async Test.run (node:internal/test_runner/test:640:9)',
  'Suite.run (internal/x.js:1:1)',
  '❯ src/price.test.ts:12:5',
  'File "/repo/tests/test_price.py", line 11, in test_total',
  '    assert total(cart) == 12',
  'File "/usr/lib/python3.11/site-packages/_pytest/python.py", line 194, in pytest_pyfunc_call',
  '        result = testfunction(**testargs)',
  'File "/usr/lib/python3.12/unittest/case.py", line 58, in testPartExecutor',
  'File "/repo/src/shop/cart.py", line 42, in total',
  'File "/repo/src/shop/tax.py", line 7, in rate',
  // pytest's short tracebacks (--tb=short/line).
  'src/shop/cart.py:42: in total',
  'src/shop/tax.py:7: ValueError',
  // Not a frame pattern, but read as one by stackFrames (a Go test's output line): left out after a
  // Python noise frame, as that frame's source line.
  '    util.go:12: boom',
  'goroutine 7 [running]:',
  'testing.tRunner(0xc000102b60, 0x5a2f98)',
  '/usr/local/go/src/testing/testing.go:1689 +0x1b1',
  'example.com/shop.TestTotal(0xc000102b60)',
  '/home/ci/shop/total_test.go:14 +0x65',
  'created by testing.(*T).Run in goroutine 1',
  'runtime.goexit()',
  'reflect.Value.call(0x1, 0x2)',
  '/home/u/go/src/runtime/proc.go:1',
  'C:\\go\\src\\testing\\testing.go:1 +0x1',
  'panic: boom',
  '',
  '   ',
];

/**
 * A stack of random lines of every runtime, with odd indentation, prefixes, trailing space and line ends;
 * `jvmShare` of its lines are JVM frames.
 */
export function generatedStack(random: () => number, jvmShare = 0.7): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const lines: string[] = [];
  const length = 1 + Math.floor(random() * 90);
  for (let index = 0; index < length; index += 1) {
    const indent = pick(INDENTS);
    const roll = random();
    let line =
      roll < jvmShare
        ? `${indent}at ${random() < 0.3 ? pick(LOADERS) : ''}${pick(CLASSES)}`
        : `${indent}${pick(OTHER_LINES)}`;
    if (random() < 0.05) line += pick([' ', '\t', '\r', '\u2028', ' x\r', '<anonymous>)']);
    if (random() < 0.02) line = line.replace('at ', pick(['at  ', 'at\t', 'at\u00a0', 'at']));
    lines.push(line);
  }
  return lines.join('\n');
}

/** A generated stack as JUnit element text: markup escaped; \v and \f (which XML 1.0 forbids) and U+FEFF made spaces. */
export function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\v\f\ufeff]/g, ' ');
}
