import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Tests wait for events, never for time: the timeout only bounds a wedged test, past the hang guard of each
  // wait in it (TEST_HANG_GUARD_MS, src/serverProcess.ts).
  test: { globalSetup: ['test/globalSetup.ts'], testTimeout: 360_000, hookTimeout: 360_000 },
});
