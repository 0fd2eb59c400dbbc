import { defineConfig } from 'vitest/config';

// Loading grammars, tokenizer tables and spawning the bin take seconds on a busy 2-core CI machine.
export default defineConfig({ test: { testTimeout: 30_000, hookTimeout: 30_000 } });
