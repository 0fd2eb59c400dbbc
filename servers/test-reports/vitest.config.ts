import { configDefaults, defineConfig } from 'vitest/config';

// The fixtures hold real test files of other projects (vitest, jest, node:test samples); they are data here.
// Tests wait for events, never for time; the timeouts only bound a test that wedges (the failure), so they are
// far above what a real runner takes on a busy 2-core machine.
export default defineConfig({
  test: {
    exclude: [...configDefaults.exclude, '**/fixtures/**'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
