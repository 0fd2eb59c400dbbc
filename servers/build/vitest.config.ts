import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Wire tests wait for events, never for time; the timeout only bounds a server that wedges (the failure).
  test: { testTimeout: 120_000, hookTimeout: 120_000 },
});
