import { configDefaults, defineConfig } from 'vitest/config';

// Loading grammars, tokenizer tables and spawning the bin take seconds on a busy 2-core CI machine.
// test/fixtures holds trimmed real projects with their own test suites (run by the recall tests, not here).
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    exclude: [...configDefaults.exclude, 'test/fixtures/**'],
  },
});
