// The official SARIF 2.1.0 schema (OASIS, rtm.5, as Microsoft's SARIF SDK ships it on npm) as a validator,
// for the tests of every CLI that prints SARIF (`groundwork-adopt verify`, `groundwork-build health`).
import { createRequire } from 'node:module';
import ajvDraft04 from 'ajv-draft-04';
import ajvFormats from 'ajv-formats';

const schema = createRequire(import.meta.url)('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');

let validate: ((log: unknown) => boolean) & { errors?: unknown[] | null };

/** The schema's complaints about `log` (empty when it is valid SARIF 2.1.0). */
export function sarifSchemaErrors(log: unknown): unknown[] {
  if (validate === undefined) {
    // Both packages are CommonJS with a `default` export; the schema's patterns predate the `u` flag.
    const ajv = new ajvDraft04.default({ allErrors: true, strict: false, unicodeRegExp: false });
    ajvFormats.default(ajv);
    validate = ajv.compile(schema);
  }
  return validate(log) ? [] : [...(validate.errors ?? [])];
}
