import { describe, expect, it } from 'vitest';
import { nullPaths, snakeCaseKeys, stdoutProblems } from './jsonChecks.js';

describe('nullPaths', () => {
  it('names every explicit null, however deep', () => {
    expect(nullPaths({ a: null, b: [1, { c: null }], d: { e: 'x' } })).toEqual(['$.a', '$.b[1].c']);
  });

  it('finds nothing in a value without nulls', () => {
    expect(nullPaths({ a: 0, b: '', c: false, d: [] })).toEqual([]);
  });
});

describe('snakeCaseKeys', () => {
  it('names keys with an underscore but not _meta', () => {
    expect(
      snakeCaseKeys({
        protocolVersion: '1',
        server_info: {},
        _meta: { x: 1 },
        list: [{ list_changed: true }],
      }),
    ).toEqual(['$.server_info', '$.list[0].list_changed']);
  });
});

describe('stdoutProblems', () => {
  it('accepts JSON-RPC messages one per line', () => {
    expect(stdoutProblems('{"jsonrpc":"2.0","id":1,"result":{}}\n{"jsonrpc":"2.0","method":"x"}\n')).toEqual(
      [],
    );
  });

  it('names a banner, a stray log line and a missing newline', () => {
    const problems = stdoutProblems('Server ready\n{"jsonrpc":"2.0","id":1,"result":{}}\n{"level":30}');
    expect(problems[0]).toMatch(/^stdout starts with "Server ready/);
    expect(problems.slice(1)).toEqual([
      'stdout does not end with a newline',
      'not JSON: Server ready',
      'not JSON-RPC 2.0: {"level":30}',
    ]);
  });

  it('calls an empty stdout a problem', () => {
    expect(stdoutProblems('')).toEqual(['stdout is empty']);
  });
});
