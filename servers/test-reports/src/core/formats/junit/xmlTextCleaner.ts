// Test output is pasted into reports verbatim, so real reports carry ANSI colour codes and control
// characters that XML forbids. They are removed before the XML parser sees them, chunk by chunk.
import { ANSI_OR_CONTROL } from '../ansiText.js';

// Characters XML 1.0 never allows (tab, LF and CR are fine), plus the two non-characters.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this module's job
const ILLEGAL_CHAR = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]/;
// ANSI escapes and illegal characters written as character references (`&#27;[31m`, `&#x1B;`), which XML rejects just as well.
const ILLEGAL_REFERENCE =
  /&#(?:x0*1[bB]|0*27);(?:\[[0-?]*[ -/]*[@-~])?|&#(?:x0*(?:[0-8bBcCeE]|1[0-9a-fA-F]|[fF]{3}[eEfF])|0*(?:[0-8]|1[124-9]|2[0-9]|3[01]|6553[45]));/g;
/**
 * Removes ANSI escapes and XML-illegal characters (literal or as character references). Callers hand it
 * pieces that end at a markup boundary, so no sequence is ever cut in two.
 */
export function cleanXmlText(text: string): string {
  let cleaned = text;
  if (ILLEGAL_CHAR.test(cleaned)) cleaned = cleaned.replace(ANSI_OR_CONTROL, '');
  if (cleaned.includes('&#')) cleaned = cleaned.replace(ILLEGAL_REFERENCE, '');
  return cleaned;
}
