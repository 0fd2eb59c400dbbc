import { configDefaults, defineConfig } from 'vitest/config';

// The fixtures hold real test files of other projects (vitest, jest, node:test samples); they are data here.
export default defineConfig({ test: { exclude: [...configDefaults.exclude, '**/fixtures/**'] } });
