import { describe, expect, it } from 'vitest';
import { detectFormatOf } from './formatDetection.js';

describe('detectFormatOf', () => {
  it.each([
    ['<?xml version="1.0"?>\n<!-- written by gotestsum -->\n<testsuites tests="1">', 'junit'],
    ['\uFEFF<testsuite name="x">', 'junit'],
    ['<?xml version="1.0"?><!DOCTYPE t [<!ENTITY a "b">]><testsuite name="x">', 'junit'],
    ['TAP version 14\n1..2\nok 1 - a', 'tap'],
    ['# comment first\nok 1 - a\n1..1', 'tap'],
    ['{"Time":"2026-11-29T10:00:00Z","Action":"start","Package":"example.com/shop"}\n', 'go-test-json'],
    ['{"numFailedTestSuites":0,"numTotalTests":3,"testResults":[]}', 'jest-json'],
    ['   \n\t', 'empty'],
  ])('reads %j as %s', (start, format) => {
    expect(detectFormatOf(start)).toBe(format);
  });

  it.each([
    '<?xml version="1.0"?><project><modelVersion>4.0.0</modelVersion></project>',
    '<!DOCTYPE html><html></html>',
    '{"name":"shop","scripts":{"test":"jest"}}',
    'just some log output',
  ])('does not take %j for a report', (start) => {
    expect(detectFormatOf(start)).toBeUndefined();
  });
});
