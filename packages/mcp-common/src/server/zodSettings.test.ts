import { expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../index.js';

it('importing mcp-common turns off zod’s parser compiler before any schema is built', () => {
  expect(defineTool).toBeDefined();
  expect(z.config().jitless).toBe(true);
});
