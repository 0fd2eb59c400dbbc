import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Wire tests wait for events, never for time; the timeout only bounds a server that wedges (the failure).
  test: { globalSetup: ['test/globalSetup.ts'], testTimeout: 60_000 },
});
