import { defineConfig } from 'vitest/config';

// Tests wait for events, never for time; the timeouts only bound a test that wedges (the failure), so they are
// far above what loading grammars and spawning the bin take on a busy 2-core machine.
export default defineConfig({ test: { testTimeout: 120_000, hookTimeout: 120_000 } });
