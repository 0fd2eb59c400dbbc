import { configDefaults, defineConfig } from 'vitest/config';

// The precision corpus under test/fixtures holds real repositories, whose own test files are data here.
// Tests wait for events, never for time; the timeouts only bound a test that wedges (the failure), so they are
// far above what a test takes on a busy 2-core machine.
export default defineConfig({
  test: {
    exclude: [...configDefaults.exclude, '**/fixtures/**'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
