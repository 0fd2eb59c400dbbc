import { describe, expect, it } from 'vitest';
import { CancelledError, DomainError, throwIfAborted } from './domainError.js';
import { ToolError } from './tools/toolError.js';

describe('DomainError', () => {
  it('carries a stable code and its message; ToolError and CancelledError are DomainErrors', () => {
    const error = new DomainError('UNKNOWN_FILE', "'a.ts' is not a source file");
    expect([error.code, error.message, error.name]).toEqual([
      'UNKNOWN_FILE',
      "'a.ts' is not a source file",
      'DomainError',
    ]);
    expect(new ToolError('X', 'y')).toBeInstanceOf(DomainError);
    expect(new CancelledError()).toMatchObject({ code: 'CANCELLED', message: 'The request was cancelled.' });
  });

  it('throwIfAborted throws CancelledError only once the signal is aborted', () => {
    const controller = new AbortController();
    expect(() => throwIfAborted(controller.signal)).not.toThrow();
    expect(() => throwIfAborted(undefined)).not.toThrow();
    controller.abort();
    expect(() => throwIfAborted(controller.signal)).toThrow(CancelledError);
  });
});
