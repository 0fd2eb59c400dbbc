import { defineConfig } from 'vitest/config';

// The release builds, packs and bundles four servers, and npm installs each twice (bundle, npx) through
// verdaccio: minutes on a busy 2-core machine. Each step waits for its process, never for a clock.
export default defineConfig({ test: { testTimeout: 300_000, hookTimeout: 600_000 } });
