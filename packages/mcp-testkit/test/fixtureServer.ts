// Where the fixture server's built bin and its allowed directory are.
import { fileURLToPath } from 'node:url';

export const fixtureBin = fileURLToPath(new URL('./fixture/dist/bin.js', import.meta.url));
export const fixtureDir = fileURLToPath(new URL('./fixture', import.meta.url));
