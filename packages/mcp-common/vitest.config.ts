import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Tests wait for events, never for time; the timeout only bounds a test that wedges (the failure): past the
  // 120 s hang guard of each wait in it (childProcess.test.ts, the testkit's HANG_GUARD_MS), so theirs report.
  test: { globalSetup: ['test/globalSetup.ts'], testTimeout: 360_000, hookTimeout: 360_000 },
});
