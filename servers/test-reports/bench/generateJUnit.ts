// A seeded generator of large JUnit reports shaped like real CI output: suites of test cases, about one
// in ten failing with a long JVM stack trace and captured output, some errors and skips. Same seed, same file.
import { once } from 'node:events';
import { createWriteStream, existsSync, statSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { seededRandom } from '@groundwork/mcp-testkit';

export interface GeneratorOptions {
  cases: number;
  targetMegabytes: number;
  seed: number;
  directory: string;
  /** Share of cases that fail or error (a fifth of them errors); default 0.10. */
  failureRate?: number;
  /** Frames per stack trace; default 40–80, varying. */
  stackFrames?: number;
}

export interface GeneratedReport {
  file: string;
  bytes: number;
  cases: number;
  failed: number;
  errored: number;
  skipped: number;
}

const FRAMEWORK_FRAMES = [
  'org.junit.jupiter.engine.execution.MethodInvocation.proceed(MethodInvocation.java:60)',
  'org.junit.jupiter.engine.execution.InvocationInterceptorChain$ValidatingInvocation.proceed(InvocationInterceptorChain.java:131)',
  'org.junit.jupiter.engine.extension.TimeoutExtension.intercept(TimeoutExtension.java:156)',
  'org.junit.platform.engine.support.hierarchical.NodeTestTask.executeRecursively(NodeTestTask.java:147)',
  'java.base/jdk.internal.reflect.DirectMethodHandleAccessor.invoke(DirectMethodHandleAccessor.java:103)',
  'java.base/java.lang.reflect.Method.invoke(Method.java:580)',
  'org.apache.maven.surefire.junitplatform.JUnitPlatformProvider.invokeAllTests(JUnitPlatformProvider.java:150)',
  'org.apache.maven.surefire.booter.ForkedBooter.main(ForkedBooter.java:495)',
];

/** Writes the report unless one with the same parameters exists; returns its path and expected counts. */
export async function generateJUnit(options: GeneratorOptions): Promise<GeneratedReport> {
  await mkdir(options.directory, { recursive: true });
  const failureRate = options.failureRate ?? 0.1;
  const shape =
    options.failureRate === undefined && options.stackFrames === undefined
      ? ''
      : `-fail${Math.round(failureRate * 100)}-frames${options.stackFrames ?? 'mixed'}`;
  const name = `junit-${options.cases}-${options.targetMegabytes}mb${shape}-seed${options.seed}.xml`;
  const file = path.join(options.directory, name);
  // Same seed and sizes give the same bytes, so an earlier file is reused.
  if (existsSync(file) && existsSync(`${file}.json`)) {
    return JSON.parse(await readFile(`${file}.json`, 'utf8')) as GeneratedReport;
  }
  const random = seededRandom(options.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  // Output lines per case are sized so the file reaches the target; failures carry most of the bulk.
  const bytesPerCase = (options.targetMegabytes * 1024 * 1024) / options.cases;
  // ≈ 150 bytes of markup per case and ≈ 90 per stack frame of a failure, plus ≈ 46 bytes per log line
  // (failures log three times the lines, passing tests a third of them).
  const meanFrames = options.stackFrames ?? 60;
  const stackBytes = failureRate * (meanFrames * 90 + 250);
  const lineWeight = failureRate * 3 + (1 - failureRate) / 3;
  const logLinesPerCase =
    shape === ''
      ? Math.max(1, Math.round((bytesPerCase - 700) / 46)) // the original shape, kept byte for byte
      : Math.max(1, Math.round((bytesPerCase - 150 - stackBytes) / 46 / lineWeight / 1.1));
  const counts = { failed: 0, errored: 0, skipped: 0 };
  const casesPerSuite = 50;
  const temporary = `${file}.partial`;
  const out = createWriteStream(temporary);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="bench">\n');
  for (let index = 0; index < options.cases; index += 1) {
    const suiteIndex = Math.floor(index / casesPerSuite);
    const className = `com.acme.module${suiteIndex % 97}.Feature${suiteIndex}Test`;
    if (index % casesPerSuite === 0) {
      await write(`  <testsuite name="${className}" tests="${casesPerSuite}" time="12.5">\n`);
    }
    const time = (random() * 2).toFixed(3);
    const roll = random();
    let body = '';
    const logLines = Math.round(logLinesPerCase * (0.5 + random()));
    if (roll < failureRate) {
      const isError = roll >= failureRate * 0.8;
      if (isError) counts.errored += 1;
      else counts.failed += 1;
      const expected = Math.floor(random() * 1000);
      const message = isError
        ? `Connection to db-${expected}.internal refused`
        : `expected: &lt;${expected}&gt; but was: &lt;${expected + 1}&gt;`;
      const type = isError ? 'java.net.ConnectException' : 'org.opentest4j.AssertionFailedError';
      const frames: string[] = [];
      const depth = options.stackFrames ?? 40 + Math.floor(random() * 40);
      for (let frame = 0; frame < depth; frame += 1) {
        frames.push(
          frame < 6
            ? `\tat com.acme.module${frame}.Service${Math.floor(random() * 50)}.handle${frame}(Service.java:${Math.floor(random() * 400) + 1})`
            : `\tat ${pick(FRAMEWORK_FRAMES)}`,
        );
      }
      const element = isError ? 'error' : 'failure';
      body += `      <${element} message="${message}" type="${type}">${type}: ${message}\n${frames.join('\n')}\n</${element}>\n`;
      body += `      <system-out><![CDATA[${logLinesOf(random, logLines * 3, index)}]]></system-out>\n`;
    } else if (roll < failureRate + 0.02) {
      counts.skipped += 1;
      body += '      <skipped message="disabled until the migration lands"/>\n';
    } else if (logLines > 0) {
      body += `      <system-out>${logLinesOf(random, Math.max(1, Math.round(logLines / 3)), index)
        .replace(/&/g, '&amp;')
        .replace(/</g, '&lt;')}</system-out>\n`;
    }
    const line = `    <testcase name="case${index}_${Math.floor(random() * 1e6)}" classname="${className}" time="${time}"`;
    await write(body === '' ? `${line}/>\n` : `${line}>\n${body}    </testcase>\n`);
    if (index % casesPerSuite === casesPerSuite - 1 || index === options.cases - 1)
      await write('  </testsuite>\n');
  }
  await write('</testsuites>\n');
  out.end();
  await once(out, 'finish');
  await rename(temporary, file);
  const report = { file, bytes: statSync(file).size, cases: options.cases, ...counts };
  await writeFile(`${file}.json`, JSON.stringify(report));
  return report;
}

function logLinesOf(random: () => number, lines: number, index: number): string {
  const out: string[] = [];
  for (let line = 0; line < lines; line += 1) {
    const level = random() < 0.1 ? 'WARN' : 'INFO';
    out.push(
      `2026-11-29T10:${String(line % 60).padStart(2, '0')}:00.${String(index % 1000).padStart(3, '0')}Z ${level} [worker-${line % 8}] request ${Math.floor(random() * 1e9)} handled in ${Math.floor(random() * 500)} ms`,
    );
  }
  return out.join('\n');
}
