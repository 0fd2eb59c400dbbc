// The conformance suite needs Node >= 22; the `node` npm package ships that runtime as a binary.
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** The Node 22 binary and the conformance CLI it runs. */
export function conformanceCommand() {
  const node = path.join(path.dirname(require.resolve('node/package.json')), 'bin', 'node');
  const cli = path.join(
    path.dirname(require.resolve('@modelcontextprotocol/conformance/package.json')),
    'dist',
    'index.js',
  );
  return { node, cli };
}
