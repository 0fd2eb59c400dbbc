// Proves each architecture rule in the repository's .dependency-cruiser.cjs can fail: a temporary tree
// with one deliberate violation per rule (and allowed imports beside them) is cruised with that config.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_HANG_GUARD_MS } from '../src/serverProcess.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const run = promisify(execFile);

const TREE: Record<string, string> = {
  'servers/alpha/src/core/pricing.ts':
    "import { tool } from '../mcp/pricingTool.js';\nexport const price = tool;\n",
  'servers/alpha/src/mcp/pricingTool.ts': 'export const tool = 1;\n',
  'servers/alpha/src/core/scaffolded.ts':
    "import { ToolError } from '@groundwork/mcp-common';\nexport { ToolError };\n",
  'servers/alpha/src/core/masked.ts':
    "import { maskSecrets } from '@groundwork/mcp-common/masking';\nexport { maskSecrets };\n",
  'servers/alpha/src/core/handles.ts':
    "import type { ConfinedFile } from '@groundwork/mcp-common/files';\nexport type { ConfinedFile };\n",
  'servers/alpha/src/core/runs.ts':
    "import { runChild } from '@groundwork/mcp-common/childProcess';\nexport { runChild };\n",
  'servers/alpha/src/core/lookalike.ts':
    "import { x } from '@groundwork/mcp-common/files-internal';\nexport { x };\n",
  'servers/alpha/src/mcp/protocol.ts':
    "import { Server } from '@modelcontextprotocol/sdk/server/index.js';\nexport { Server };\n",
  'servers/alpha/test/wire.test.ts':
    "import { Client } from '@modelcontextprotocol/sdk/client/index.js';\nexport { Client };\n",
  'servers/alpha/src/mcp/borrowed.ts':
    "import { thing } from '../../../beta/src/core/thing.js';\nexport { thing };\n",
  'servers/beta/src/core/thing.ts': 'export const thing = 2;\n',
  'servers/beta/src/mcp/viaPackage.ts': "import { price } from '@groundwork/alpha';\nexport { price };\n",
  'servers/alpha/src/testing/sampleFiles.ts': 'export const sample = 3;\n',
  'servers/alpha/src/core/usesTestHelper.ts':
    "import { sample } from '../testing/sampleFiles.js';\nexport { sample };\n",
  'servers/alpha/src/core/usesTestHelper.test.ts':
    "import { sample } from '../testing/sampleFiles.js';\nexport { sample };\n",
  'packages/mcp-common/src/leak.ts':
    "import { thing } from '../../../servers/beta/src/core/thing.js';\nexport { thing };\n",
  'packages/mcp-common/src/cycleA.ts': "import { b } from './cycleB.js';\nexport const a = () => b;\n",
  'packages/mcp-common/src/cycleB.ts': "import { a } from './cycleA.js';\nexport const b = () => a;\n",
};

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

let tree: string;
let violations: Violation[];

beforeAll(async () => {
  tree = await mkdtemp(path.join(tmpdir(), 'depcruise-rules-'));
  for (const [file, text] of Object.entries(TREE)) {
    await mkdir(path.dirname(path.join(tree, file)), { recursive: true });
    await writeFile(path.join(tree, file), text);
  }
  const depcruise = path.join(repoRoot, 'node_modules', '.bin', 'depcruise');
  const args = [
    'packages',
    'servers',
    '--config',
    path.join(repoRoot, '.dependency-cruiser.cjs'),
    '--output-type',
    'json',
  ];
  // depcruise exits non-zero when it finds violations, which is what this tree is for.
  const stdout = await run(depcruise, args, { cwd: tree, maxBuffer: 16 * 1024 * 1024 }).then(
    (done) => done.stdout,
    (failed: { stdout?: string }) => failed.stdout ?? '',
  );
  violations = (JSON.parse(stdout) as { summary: { violations: Violation[] } }).summary.violations;
}, TEST_HANG_GUARD_MS);

afterAll(async () => {
  await rm(tree, { recursive: true, force: true });
});

function reported(rule: string): string[] {
  return violations.filter((violation) => violation.rule.name === rule).map((violation) => violation.from);
}

describe('.dependency-cruiser.cjs', () => {
  it('core-imports-no-mcp-layer: a core module importing a tool', () => {
    expect(reported('core-imports-no-mcp-layer')).toEqual(['servers/alpha/src/core/pricing.ts']);
  });

  it('core-imports-no-mcp-scaffolding: a core module importing mcp-common, but not its masking, files or childProcess subpath', () => {
    expect(reported('core-imports-no-mcp-scaffolding').sort()).toEqual([
      'servers/alpha/src/core/lookalike.ts',
      'servers/alpha/src/core/scaffolded.ts',
    ]);
  });

  it('sdk-only-in-mcp-common-and-testkit: a server tool importing the SDK, but not a server test', () => {
    expect(reported('sdk-only-in-mcp-common-and-testkit')).toEqual(['servers/alpha/src/mcp/protocol.ts']);
  });

  it('server-imports-no-other-server: by relative path and by package name', () => {
    expect(reported('server-imports-no-other-server').sort()).toEqual([
      'servers/alpha/src/mcp/borrowed.ts',
      'servers/beta/src/mcp/viaPackage.ts',
    ]);
  });

  it('mcp-common-imports-no-server-or-testkit: mcp-common importing a server', () => {
    expect(reported('mcp-common-imports-no-server-or-testkit')).toEqual(['packages/mcp-common/src/leak.ts']);
  });

  it('test-helpers-only-in-tests: source importing src/testing/, but not a test', () => {
    expect(reported('test-helpers-only-in-tests')).toEqual(['servers/alpha/src/core/usesTestHelper.ts']);
  });

  it('no-circular: two modules importing each other (reported once, from either end)', () => {
    const cycle = reported('no-circular');
    expect(cycle).toHaveLength(1);
    expect(['packages/mcp-common/src/cycleA.ts', 'packages/mcp-common/src/cycleB.ts']).toContain(cycle[0]);
  });

  it('reports nothing else', () => {
    expect(violations).toHaveLength(9);
  });
});
