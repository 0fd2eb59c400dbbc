// Test helper: what a report's failures say, read by saxes from the whole document (the oracle for readers
// that never hold a whole body).
import { SaxesParser } from 'saxes';
import { stripAnsi } from '../core/formats/ansiText.js';
import { cleanXmlText } from '../core/formats/junit/xmlTextCleaner.js';
import { head, MAX_STACK_CHARS } from '../core/testResult.js';

/** Each failure's text (text and CDATA, as saxes reads the whole document), in document order. */
export function failureTexts(document: string): string[] {
  const texts: string[] = [];
  let current: string | undefined;
  const parser = new SaxesParser();
  parser.on('opentag', (tag) => {
    if (tag.name === 'failure' || tag.name === 'error') current = '';
  });
  const text = (value: string) => {
    if (current !== undefined) current += value;
  };
  parser.on('text', text);
  parser.on('cdata', text);
  parser.on('closetag', (tag) => {
    if ((tag.name === 'failure' || tag.name === 'error') && current !== undefined) {
      texts.push(current);
      current = undefined;
    }
  });
  parser.write(document).close();
  return texts;
}

/** A failure's stack as the reader gave it when it decoded every body: saxes' text, cleaned and bounded. */
export function expectedStack(text: string): string {
  return head(stripAnsi(cleanXmlText(text.slice(0, MAX_STACK_CHARS + 1))).trim(), MAX_STACK_CHARS);
}
