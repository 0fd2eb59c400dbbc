// A seeded generator of TypeScript repositories with the shapes real ones have: tsconfig path aliases,
// NodeNext `.js` specifiers, barrels with `export *`, folder index imports, `import type`, dynamic imports,
// builtins and third-party packages. Same seed and size → the same repository, byte for byte.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { seededRandom } from '@groundwork/mcp-testkit';

const FILES_PER_MODULE = 40;

export function generateRepo(parent: string, files: number, seed: number): string {
  const root = path.join(parent, `generated-${files}-seed${seed}`);
  if (existsSync(path.join(root, '.complete'))) return root;
  rmSync(root, { recursive: true, force: true });
  const random = seededRandom(seed);
  const pick = (count: number) => Math.floor(random() * count);
  const modules = Math.max(1, Math.ceil(files / FILES_PER_MODULE));
  const sizeOf = (module: number) => Math.min(FILES_PER_MODULE, files - module * FILES_PER_MODULE);

  writeFileSync(
    path.join(mkdirp(root), 'tsconfig.json'),
    `${JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          baseUrl: '.',
          paths: { '@app/*': ['src/*'], '~shared/*': ['src/mod0/*'] },
        },
        include: ['src'],
      },
      null,
      2,
    )}\n`,
  );
  writeFileSync(path.join(root, 'package.json'), '{ "name": "generated", "type": "module" }\n');
  writeFileSync(path.join(root, '.gitignore'), 'node_modules/\ndist/\n');

  for (let module = 0; module < modules; module++) {
    const folder = mkdirp(path.join(root, 'src', `mod${module}`));
    const count = sizeOf(module) - 1; // one slot is the barrel
    const barrel = [];
    for (let index = 0; index < count; index++) {
      const imports: string[] = [];
      const uses: string[] = [];
      const importCount = 2 + pick(5);
      for (let n = 0; n < importCount; n++) {
        const style = pick(10);
        if (style < 4 && count > 1) {
          const other = pick(count);
          if (other === index) continue;
          imports.push(`import { value${other} } from './file${other}.js';`);
          uses.push(`value${other}`);
        } else if (style < 6) {
          const targetModule = pick(modules);
          const other = pick(Math.max(1, sizeOf(targetModule) - 1));
          if (targetModule === module && other === index) continue;
          imports.push(
            `import { value${other} as m${targetModule}v${other} } from '@app/mod${targetModule}/file${other}';`,
          );
          uses.push(`m${targetModule}v${other}`);
        } else if (style < 7 && modules > 1) {
          const targetModule = (module + 1 + pick(modules - 1)) % modules;
          imports.push(`import * as barrel${targetModule} from '../mod${targetModule}/index.js';`);
          uses.push(`Object.keys(barrel${targetModule}).length`);
        } else if (style < 8 && count > 1) {
          const other = pick(count);
          if (other === index) continue;
          imports.push(`import type { Shape${other} } from './file${other}.js';`);
        } else if (style < 9) {
          imports.push(
            pick(2) === 0
              ? "import { readFileSync } from 'node:fs';"
              : "import debounce from 'lodash/debounce';",
          );
        } else {
          const other = pick(Math.max(1, sizeOf(0) - 1));
          imports.push(`const lazy${n} = () => import('~shared/file${other}.js');`);
        }
      }
      barrel.push(`export * from './file${index}.js';`);
      writeFileSync(
        path.join(folder, `file${index}.ts`),
        fileBody(module, index, [...new Set(imports)], uses, random),
      );
    }
    writeFileSync(path.join(folder, 'index.ts'), `${barrel.slice(0, 12).join('\n')}\n`);
  }
  writeFileSync(path.join(root, '.complete'), '');
  return root;
}

function fileBody(
  module: number,
  index: number,
  imports: string[],
  uses: string[],
  random: () => number,
): string {
  const helpers = 1 + Math.floor(random() * 4);
  const lines = [...imports, ''];
  lines.push(`/** Shape ${index} of module ${module}. */`);
  lines.push(
    `export interface Shape${index} {`,
    '  id: number;',
    '  label: string;',
    '  tags: readonly string[];',
    '}',
    '',
  );
  for (let helper = 0; helper < helpers; helper++) {
    lines.push(`function helper${helper}(input: number): number {`);
    lines.push(`  const scaled = input * ${Math.floor(random() * 100)} + ${helper};`);
    lines.push(`  return scaled % ${7 + helper} === 0 ? scaled / 2 : scaled + ${module};`);
    lines.push('}', '');
  }
  const used = uses.length > 0 ? uses.map((use) => `Number(${use} ? 1 : 0)`).join(' + ') : '0';
  lines.push(`export const value${index} = helper0(${index}) + ${used};`, '');
  lines.push(`export function describe${index}(shape: Shape${index}): string {`);
  lines.push("  return [shape.id, shape.label, shape.tags.join(',')].join(':');");
  lines.push('}', '');
  return lines.join('\n');
}

function mkdirp(folder: string): string {
  mkdirSync(folder, { recursive: true });
  return folder;
}
