import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Language } from './languages/fileLanguage.js';
import { outlineSymbols, renderOutline } from './symbolOutline.js';
import { fixtureRoot } from './testFixtures.js';

async function symbolsOf(fixture: string, file: string, language: Language) {
  const source = readFileSync(path.join(fixtureRoot(fixture), file), 'utf8');
  return outlineSymbols(language, file, source);
}

const brief = (symbols: Awaited<ReturnType<typeof symbolsOf>>) =>
  symbols.map(({ kind, name, line, exported }) => ({ kind, name, line, exported }));

describe('outlineSymbols', () => {
  it('keeps multi-line signatures whole (up to the body), whitespace collapsed', async () => {
    const ts = [
      'export async function load(',
      '  path: string,',
      '  options: { strict: boolean },',
      '): Promise<string> {',
      '  return path;',
      '}',
      'export const run = (',
      '  a: number,',
      '  b: number,',
      '): number => {',
      '  return a + b;',
      '};',
    ].join('\n');
    expect((await outlineSymbols('typescript', 'load.ts', ts)).map((symbol) => symbol.signature)).toEqual([
      'export async function load( path: string, options: { strict: boolean }, ): Promise<string>',
      'export const run = ( a: number, b: number, ): number =>',
    ]);
    const python = [
      'def total(',
      '    items: list[int],',
      '    tax: float = 0.2,',
      ') -> float:',
      '    return 0.0',
    ];
    expect((await outlineSymbols('python', 'total.py', python.join('\n')))[0]?.signature).toBe(
      'def total( items: list[int], tax: float = 0.2, ) -> float',
    );
    const go = [
      'package p',
      '',
      'func Open(',
      '\tname string,',
      '\tflag int,',
      ') (*File, error) {',
      '\treturn nil, nil',
      '}',
    ];
    expect((await outlineSymbols('go', 'open.go', go.join('\n')))[0]?.signature).toBe(
      'func Open( name string, flag int, ) (*File, error)',
    );
  });

  it('lists TypeScript top-level declarations with kind, line and export status', async () => {
    const source = [
      "import x from './x.js';",
      'export interface Shape { area(): number }',
      'type Local = string;',
      'export const PI = 3.14, E = 2.71;',
      'function helper() {}',
      'export default class Circle {}',
      'export enum Color { Red }',
      'export { helper };',
    ].join('\n');
    expect(brief(await outlineSymbols('typescript', 'shapes.ts', source))).toEqual([
      { kind: 'interface', name: 'Shape', line: 2, exported: true },
      { kind: 'type', name: 'Local', line: 3, exported: false },
      { kind: 'const', name: 'PI', line: 4, exported: true },
      { kind: 'const', name: 'E', line: 4, exported: true },
      { kind: 'function', name: 'helper', line: 5, exported: true },
      { kind: 'class', name: 'Circle', line: 6, exported: true },
      { kind: 'enum', name: 'Color', line: 7, exported: true },
    ]);
  });

  it('gives the first line of a declaration without its body as its signature', async () => {
    const [symbol] = await symbolsOf('ts-app', 'src/utils/math.ts', 'typescript');
    expect(symbol?.signature).toBe('export function add(a: number, b: number): number');
  });

  it('lists Python functions, classes and module variables; _names are private', async () => {
    expect(brief(await symbolsOf('python-app', 'main.py', 'python'))).toEqual([
      { kind: 'function', name: '_private_helper', line: 9, exported: false },
      { kind: 'function', name: 'run', line: 13, exported: true },
    ]);
    expect(brief(await symbolsOf('python-app', 'shop/models.py', 'python'))).toEqual([
      { kind: 'class', name: 'Item', line: 1, exported: true },
      { kind: 'variable', name: 'DEFAULT_PRICE', line: 6, exported: true },
    ]);
  });

  it('lists Java types, Kotlin top-level functions and properties, Scala objects', async () => {
    expect(brief(await symbolsOf('jvm-app', 'src/main/java/com/acme/App.java', 'java'))).toEqual([
      { kind: 'class', name: 'App', line: 6, exported: true },
    ]);
    expect(brief(await symbolsOf('jvm-app', 'src/main/kotlin/com/acme/text/Shout.kt', 'kotlin'))).toEqual([
      { kind: 'function', name: 'shout', line: 3, exported: true },
      { kind: 'property', name: 'suffix', line: 5, exported: false },
    ]);
    expect(brief(await symbolsOf('jvm-app', 'src/main/scala/com/acme/report/Report.scala', 'scala'))).toEqual(
      [{ kind: 'object', name: 'Report', line: 6, exported: true }],
    );
  });

  it('lists Go functions, methods and types; capitalized names are exported', async () => {
    expect(brief(await symbolsOf('go-app', 'internal/cart/cart.go', 'go'))).toEqual([
      { kind: 'type', name: 'Cart', line: 4, exported: true },
      { kind: 'function', name: 'New', line: 8, exported: true },
    ]);
    expect(brief(await symbolsOf('go-app', 'internal/cart/total.go', 'go'))).toEqual([
      { kind: 'method', name: 'Total', line: 3, exported: true },
    ]);
  });
});

describe('renderOutline', () => {
  it('shows only exported declarations when there are some, each with its line', () => {
    const outline = renderOutline('a.ts', [
      { kind: 'function', name: 'f', line: 3, exported: true, signature: 'export function f(): void' },
      { kind: 'function', name: 'g', line: 9, exported: false, signature: 'function g(): void' },
    ]);
    expect(outline.split('\n').slice(1)).toEqual(['3: export function f(): void']);
    expect(outline).toContain('a.ts (outline: exported declarations)');
  });
});
