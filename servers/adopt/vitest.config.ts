import { configDefaults, defineConfig } from 'vitest/config';

// The precision corpus under test/fixtures holds real repositories, whose own test files are data here.
export default defineConfig({ test: { exclude: [...configDefaults.exclude, '**/fixtures/**'] } });
