// Starts an MCP server over stdio, initializes it and lists its tools: the build runs it to fill the code
// cache, the release to write each bundle manifest's tool list. One handshake for both.
import { spawn } from 'node:child_process';

const HANDSHAKE = (clientName, protocolVersion) => [
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion,
      capabilities: {},
      clientInfo: { name: clientName, version: '0' },
    },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list' },
];

/**
 * Resolves with the server's tools/list result, or undefined when it did not answer (it is killed after
 * `timeoutMs`). Never rejects: the caller decides what a silent server means.
 */
export function listToolsOverStdio(
  command,
  args,
  { clientName, cwd, protocolVersion = '2025-06-18', timeoutMs = 15_000, stderr = 'ignore' },
) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, stdio: ['pipe', 'pipe', stderr] });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    let output = '';
    let tools;
    child.stdout.on('data', (chunk) => {
      output += chunk;
      for (const line of output.split('\n').slice(0, -1)) {
        try {
          const message = JSON.parse(line);
          if (message.id === 2) tools = message.result?.tools;
        } catch {
          // Not a JSON-RPC line: nothing to read from it.
        }
      }
      output = output.slice(output.lastIndexOf('\n') + 1);
      if (tools !== undefined) child.stdin.end();
    });
    child.on('error', () => resolve(undefined));
    child.on('exit', () => {
      clearTimeout(timer);
      resolve(tools);
    });
    child.stdin.write(
      HANDSHAKE(clientName, protocolVersion)
        .map((request) => `${JSON.stringify(request)}\n`)
        .join(''),
    );
  });
}
