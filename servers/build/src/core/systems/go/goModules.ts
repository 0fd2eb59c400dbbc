// Go modules read statically: every go.mod (module path, `go` and `toolchain` directives, require and replace)
// and go.work (`use`), as the go command reads them. One system per go.work, and one per go.mod it does not use.
// The go.mod grammar is line-based (golang.org/x/mod/modfile): a directive, or a directive with a `( … )` block.
import type { BuildModule, BuildSystemModel } from '../../workspace/model.js';
import { emptySystem, fileIn, folderOf, joinPath, type ReadContext } from '../readContext.js';

interface Directive {
  verb: string;
  args: string[];
  line: number;
}

/** The directives of a go.mod or go.work file, blocks expanded (`require ( a v1 \n b v2 )` → two requires). */
export function parseGoDirectives(text: string): Directive[] {
  const directives: Directive[] = [];
  let block: string | undefined;
  const lines = text.split('\n');
  for (const [index, raw] of lines.entries()) {
    const tokens = tokenize(raw);
    if (tokens.length === 0) continue;
    const line = index + 1;
    if (block !== undefined) {
      if (tokens[0] === ')') {
        block = undefined;
        continue;
      }
      directives.push({ verb: block, args: tokens, line });
      continue;
    }
    if (tokens[1] === '(' && tokens.length === 2) {
      block = tokens[0];
      continue;
    }
    directives.push({ verb: tokens[0] as string, args: tokens.slice(1), line });
  }
  return directives;
}

/** Words of a line: `//` comments dropped, "quoted" and `raw` strings kept whole. */
function tokenize(line: string): string[] {
  const tokens: string[] = [];
  let at = 0;
  while (at < line.length) {
    const char = line[at] as string;
    if (char === ' ' || char === '\t' || char === '\r') {
      at++;
    } else if (line.startsWith('//', at)) {
      break;
    } else if (char === '"' || char === '`') {
      let end = at + 1;
      while (end < line.length && line[end] !== char) end += line[end] === '\\' && char === '"' ? 2 : 1;
      tokens.push(line.slice(at + 1, end));
      at = end + 1;
    } else if (char === '(' || char === ')') {
      tokens.push(char);
      at++;
    } else {
      let end = at;
      while (end < line.length && !' \t\r()'.includes(line[end] as string) && !line.startsWith('//', end))
        end++;
      tokens.push(line.slice(at, end));
      at = end;
    }
  }
  return tokens;
}

interface GoMod {
  dir: string;
  file: string;
  path: string;
  directives: Directive[];
}

export async function readGoModules(context: ReadContext): Promise<BuildSystemModel[]> {
  const mods = new Map<string, GoMod>();
  for await (const { file, text } of context.textsNamed('go.mod')) {
    const directives = parseGoDirectives(text);
    const module = directives.find((directive) => directive.verb === 'module');
    if (module?.args[0] === undefined) {
      context.problem(file, 1, 'SYNTAX_ERROR', `${file}: no module directive.`);
      continue;
    }
    mods.set(folderOf(file), { dir: folderOf(file), file, path: module.args[0], directives });
  }
  const systems: BuildSystemModel[] = [];
  const used = new Set<string>();
  for await (const { file, text } of context.textsNamed('go.work')) {
    const root = folderOf(file);
    const system = emptySystem('go', root);
    system.files.push(file);
    const directives = parseGoDirectives(text);
    const members: GoMod[] = [];
    for (const directive of directives) {
      if (directive.verb === 'use') {
        const dir = directive.args[0] === undefined ? undefined : joinPath(root, directive.args[0]);
        const mod = dir === undefined ? undefined : mods.get(dir);
        if (mod === undefined) {
          context.problem(
            file,
            directive.line,
            'MODULE_NOT_FOUND',
            `${file}:${directive.line}: use ${directive.args[0] ?? ''} names no folder with a go.mod.`,
          );
          continue;
        }
        members.push(mod);
        used.add(mod.dir);
      }
      pinTool(system, directive, file);
    }
    readMods(system, members);
    systems.push(system);
  }
  // A module another lone module replaces with a local folder is built as part of that one, not on its own.
  for (const mod of mods.values()) {
    if (used.has(mod.dir)) continue;
    for (const replacement of localReplacements(mod, mods))
      if (replacement !== mod) used.add(`replaced:${replacement.dir}`);
  }
  for (const mod of mods.values()) {
    if (used.has(mod.dir) || used.has(`replaced:${mod.dir}`)) continue;
    const system = emptySystem('go', mod.dir);
    // A lone module's local replace targets are modules of its build too (the go command builds them).
    const members = [mod, ...localReplacements(mod, mods)];
    readMods(system, members);
    systems.push(system);
  }
  return systems;
}

function localReplacements(mod: GoMod, mods: Map<string, GoMod>): GoMod[] {
  const found: GoMod[] = [];
  for (const directive of mod.directives) {
    if (directive.verb !== 'replace') continue;
    const arrow = directive.args.indexOf('=>');
    const target = directive.args[arrow + 1];
    if (arrow === -1 || target === undefined || !(target.startsWith('./') || target.startsWith('../')))
      continue;
    const dir = joinPath(mod.dir, target);
    const replacement = dir === undefined ? undefined : mods.get(dir);
    if (replacement !== undefined && replacement !== mod && !found.includes(replacement))
      found.push(replacement);
  }
  return found;
}

function pinTool(system: BuildSystemModel, directive: Directive, file: string): void {
  const version = directive.args[0];
  if (version === undefined) return;
  if (directive.verb === 'go')
    system.tools.push({ system: 'go', tool: 'go', version, at: { file, line: directive.line } });
  if (directive.verb === 'toolchain') {
    system.tools.push({
      system: 'go',
      tool: 'go-toolchain',
      version: version.replace(/^go/, ''),
      at: { file, line: directive.line },
    });
  }
}

function readMods(system: BuildSystemModel, members: readonly GoMod[]): void {
  const paths = new Set(members.map((member) => member.path));
  for (const mod of members) {
    const module: BuildModule = { system: 'go', id: mod.path, dir: mod.dir, file: mod.file };
    system.modules.push(module);
    if (!system.files.includes(mod.file)) system.files.push(mod.file);
    for (const directive of mod.directives) {
      const at = { file: mod.file, line: directive.line };
      if (system.root === mod.dir) pinTool(system, directive, mod.file);
      if (directive.verb !== 'require') continue;
      const [path, version] = directive.args;
      if (path === undefined) continue;
      const indirect = directive.args.includes('indirect');
      const local = paths.has(path);
      system.dependencies.push({
        system: 'go',
        module: mod.path,
        configuration: indirect ? 'require (indirect)' : 'require',
        coordinates: path,
        kind: local ? 'project' : 'external',
        version: local ? { spec: version, source: 'workspace' } : { spec: version, source: 'literal' },
        at,
      });
      if (local)
        system.edges.push({
          system: 'go',
          from: mod.path,
          to: path,
          kind: 'dependency',
          configuration: 'require',
          at,
        });
    }
  }
  void fileIn;
}
