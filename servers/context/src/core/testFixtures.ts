// Where the fixture repositories live, for the unit tests (test/fixtures holds small real projects).
import { fileURLToPath } from 'node:url';

export function fixtureRoot(name: string): string {
  return fileURLToPath(new URL(`../../test/fixtures/${name}`, import.meta.url));
}
