import { configDefaults, defineConfig } from 'vitest/config';

// The fixtures hold trimmed real projects (hono), whose own test files are data here.
// Tests wait for events, never for time; the timeouts only bound a test that wedges (the failure), so they are
// far above what loading grammars and spawning the bin take on a busy 2-core machine.
export default defineConfig({
  test: {
    exclude: [...configDefaults.exclude, '**/fixtures/**'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
