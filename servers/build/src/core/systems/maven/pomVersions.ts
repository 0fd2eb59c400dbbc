// Where a Maven dependency's version comes from, read statically the way Maven's model builder settles it:
// `${…}` properties through the POM's lineage; <dependencyManagement> inherited (a child's entry before its
// parents'); then the `import`-scope BOMs of that lineage in declaration order (child's first, the first BOM
// that manages an artifact wins). A BOM that is a POM of the tree is read like any other POM: its own lineage,
// properties and imports. A BOM or parent outside the tree is looked up in the operator's local repository,
// when one is read (mavenRepository.ts), and read the same way. What cannot be read (a BOM or a parent in
// neither, a cycle) leaves the answer unknown, naming it: a version is never guessed.
import type { DeclaredVersion, SourceLocation } from '../../workspace/model.js';
import type { Pom, PomDependency } from './mavenReactor.js';
import type { MavenRepository } from './mavenRepository.js';

const BUILT_IN = new Set([
  'project.version',
  'project.groupId',
  'project.artifactId',
  'pom.version',
  'version',
]);

/** Property references deeper than this are refused (Maven itself refuses a cycle). */
const MAX_PROPERTY_DEPTH = 16;
/** A resolved value longer than this is refused: `${a}${a}` chains would otherwise grow it exponentially. */
const MAX_VALUE_CHARS = 1_000;
/** BOMs importing BOMs deeper than this are not followed (the answer says so): a hostile tree cannot recurse. */
export const MAX_BOM_DEPTH = 16;
/**
 * Parents followed at most this far (real chains are a handful deep). Each POM's properties and management are
 * looked up along its whole chain, so thousands of POMs each the next one's parent would cost their square.
 */
export const MAX_PARENT_DEPTH = 64;
/**
 * Imported BOMs one read of the tree searches at most, over all its lookups: a POM importing thousands of
 * BOMs and declaring thousands of versionless dependencies would otherwise cost their product in time and
 * in remembered answers. A real build needs a small part of it; past it the answer says so.
 */
export const MAX_BOM_SEARCHES = 1_000_000;

interface Resolved {
  value: string;
  /** The first property named. */
  via?: string;
  /** Where the value of the first reference is finally written (the line to edit). */
  at?: SourceLocation;
  /** The first property that cannot be resolved: not defined, in a cycle, too deep or too long. */
  unresolved?: string;
  /** The value itself grew past the cap (the property holding it is the one refused). */
  grew?: true;
}

/**
 * `${x}` replaced from the nearest POM defining x (and project.version), and so on through properties whose
 * values are references themselves. Each property is resolved once per call (`memo`), so a hostile POM costs
 * at most its property count in work.
 */
export function resolveProperties(
  value: string,
  lineage: readonly Pom[],
  memo = new Map<string, Resolved>(),
  depth = 0,
): Resolved {
  if (!value.includes('${')) return { value };
  let via: string | undefined;
  let at: SourceLocation | undefined;
  let unresolved: string | undefined;
  let grew = false;
  // What the references add is capped as it grows, and the first reference that cannot be resolved ends the
  // reading: `${p}` written a million times would otherwise build a string past what the engine can hold.
  const parts: string[] = [];
  let added = 0;
  let last = 0;
  for (const reference of value.matchAll(/\$\{([^}]+)\}/g)) {
    const name = reference[1] as string;
    via ??= name;
    const found = builtIn(name, lineage) ?? resolveProperty(name, lineage, memo, depth);
    added += found.value.length;
    if (found.unresolved !== undefined || added > MAX_VALUE_CHARS) {
      unresolved = found.unresolved ?? name;
      grew = found.unresolved === undefined;
      break;
    }
    at ??= found.at;
    parts.push(value.slice(last, reference.index), found.value);
    last = reference.index + reference[0].length;
  }
  parts.push(value.slice(last));
  const replaced = parts.join('');
  return {
    value: unresolved === undefined ? replaced : value,
    ...(via === undefined ? {} : { via }),
    ...(at === undefined ? {} : { at }),
    ...(unresolved === undefined ? {} : { unresolved }),
    ...(grew ? { grew } : {}),
  };
}

/** `project.version` and its kin, from the POM itself when it writes them without references. */
function builtIn(name: string, lineage: readonly Pom[]): Resolved | undefined {
  if (!BUILT_IN.has(name)) return undefined;
  const own = lineage[0];
  const value = name.endsWith('groupId')
    ? own?.groupId
    : name.endsWith('artifactId')
      ? own?.artifactId
      : own?.version;
  if (value === undefined || value.includes('${')) return undefined;
  const at = name.endsWith('version') ? own?.versionAt : undefined;
  return at === undefined ? { value } : { value, at };
}

function resolveProperty(
  name: string,
  lineage: readonly Pom[],
  memo: Map<string, Resolved>,
  depth: number,
): Resolved {
  const known = memo.get(name);
  if (known !== undefined) return known;
  const property = lineage.map((pom) => pom.properties.get(name)).find((found) => found !== undefined);
  const refused: Resolved = { value: '', unresolved: name };
  if (property === undefined || depth >= MAX_PROPERTY_DEPTH) return refused;
  // Refused while it is being resolved: a reference back to it is a cycle.
  memo.set(name, refused);
  const inner = resolveProperties(property.value, lineage, memo, depth + 1);
  const result: Resolved =
    inner.unresolved !== undefined && inner.grew === undefined
      ? { value: '', unresolved: inner.unresolved }
      : inner.grew !== undefined || inner.value.length > MAX_VALUE_CHARS
        ? refused
        : { value: inner.value, at: inner.at ?? property.at };
  memo.set(name, result);
  return result;
}

/** A <dependencyManagement> entry that applies, and the lineage its `${…}` resolve in (its own POM's). */
export interface Managed {
  entry: PomDependency;
  /** The POM that writes the entry. */
  pom: Pom;
  lineage: readonly Pom[];
  /** The BOMs it was imported through, the importer's own import first (`g:a:v`); empty when inherited. */
  boms: string[];
  /** Where each of `boms` is imported (its <version>, else the entry). */
  imports: SourceLocation[];
}

/** Where the statically read management ends: entries after it (a later BOM's) cannot be trusted. */
interface Gap {
  source: 'bom' | 'parent';
  via: string;
  reason: string;
  /** Maven refuses the whole build (a cycle): no entry is answered, not even one read before it. */
  refused?: true;
}

/**
 * A POM's management as Maven merges it, kept as references rather than merged copies: a BOM imported by every
 * module (or by each other, in a diamond) is held once, and searched once per artifact (`found`).
 */
interface Management {
  /** The lineage's own entries, the nearest POM's first. */
  own: Map<string, Managed>;
  /** The imported BOMs' managements in Maven's order, up to the gap. */
  imports: Array<{ coordinates: string; management: Management; at: SourceLocation }>;
  gap?: Gap | undefined;
  found: Map<string, Managed | Gap | undefined>;
}

/**
 * The versions a reactor's POMs manage, BOMs included. One per read of the tree: each POM's management is
 * worked out once (memo), so BOMs imported by every module, or by each other in a diamond, cost one reading.
 */
export class PomVersions {
  private readonly management = new Map<Pom, Management | 'in progress'>();
  private readonly lineages = new Map<Pom, readonly Pom[]>();
  private byCoordinates: Map<string, Pom[]> | undefined;
  private readonly treeFiles: ReadonlySet<string>;
  private searches = 0;

  /**
   * `treeParent`: the POM of the tree a POM's <parent> names, if any. `repository`: where BOMs and parents
   * outside the tree are looked up, when the operator allowed one.
   */
  constructor(
    private readonly poms: readonly Pom[],
    private readonly treeParent: (pom: Pom) => Pom | undefined,
    private readonly repository?: MavenRepository | undefined,
  ) {
    this.treeFiles = new Set(poms.map((pom) => pom.file));
  }

  /**
   * A POM and its parents, nearest first, at most MAX_PARENT_DEPTH of them: the POMs its properties and
   * management come from. A tree POM's parent is the tree's when its relativePath names it, else the
   * repository's; a repository POM's parent is the repository's only.
   */
  lineageOf(pom: Pom): readonly Pom[] {
    const known = this.lineages.get(pom);
    if (known !== undefined) return known;
    const lineage: Pom[] = [];
    for (
      let current: Pom | undefined = pom;
      current !== undefined && !lineage.includes(current) && lineage.length < MAX_PARENT_DEPTH;
      current =
        (this.inTree(current) ? this.treeParent(current) : undefined) ?? this.repositoryParent(current)
    ) {
      lineage.push(current);
    }
    this.lineages.set(pom, lineage);
    return lineage;
  }

  private inTree(pom: Pom): boolean {
    return this.treeFiles.has(pom.file);
  }

  private repositoryParent(pom: Pom): Pom | undefined {
    const coordinates = parentCoordinates(pom);
    const found = coordinates === undefined ? undefined : this.repository?.pomAt(coordinates);
    return typeof found === 'object' ? found : undefined;
  }

  /**
   * Works out every tree POM's lineage and management, so that the repository POMs they need are asked for;
   * whether some were asked for and not read yet (then the reading is done again once they are).
   */
  needsRepository(): boolean {
    for (const pom of this.poms) this.managementOf(pom, [pom]);
    return this.repository?.hasWanted() === true;
  }

  /** The entry that manages `dependency` in `pom`, where the management read statically stops, or neither. */
  managedFor(dependency: PomDependency, pom: Pom): Managed | Gap | undefined {
    const key = this.managementKey(dependency, this.lineageOf(pom));
    const management = this.managementOf(pom, [pom]);
    if (management.gap?.refused) return management.gap;
    return this.lookup(management, key);
  }

  /** The entry for `key`: the POM's own, else the first import's that manages it, else the gap, if any. */
  private lookup(management: Management, key: string): Managed | Gap | undefined {
    const own = management.own.get(key);
    // Its own entries come first, and a BOM importing none has nothing else: no answer needs remembering.
    if (own !== undefined || management.imports.length === 0) return own ?? management.gap;
    if (management.found.has(key)) return management.found.get(key);
    let answer: Managed | Gap | undefined;
    for (const { coordinates, management: imported, at } of management.imports) {
      if (++this.searches > MAX_BOM_SEARCHES) {
        // Not remembered: the answer is where the search stopped, not what the BOMs manage.
        return {
          source: 'bom',
          via: coordinates,
          reason: `the tree's BOMs were searched ${MAX_BOM_SEARCHES} times in this reading (it imports too many, too often), and not further; only Maven (resolve: true) knows it.`,
        };
      }
      const inner = this.lookup(imported, key);
      if (inner === undefined) continue;
      answer =
        'entry' in inner
          ? { ...inner, boms: [coordinates, ...inner.boms], imports: [at, ...inner.imports] }
          : { ...inner, via: `${coordinates} → ${inner.via}` };
      break;
    }
    answer ??= management.gap;
    management.found.set(key, answer);
    return answer;
  }

  /** A dependency's version; `managed`: its managedFor answer, when the caller has looked it up already. */
  versionOf(
    dependency: PomDependency,
    pom: Pom,
    managed = dependency.version === undefined ? this.managedFor(dependency, pom) : undefined,
  ): DeclaredVersion {
    const lineage = this.lineageOf(pom);
    if (dependency.version !== undefined) {
      if (!dependency.version.includes('${')) return { spec: dependency.version, source: 'literal' };
      const resolved = resolveProperties(dependency.version, lineage);
      if (resolved.unresolved !== undefined) {
        return {
          source: 'property',
          via: resolved.unresolved,
          unknown: `the property ${resolved.unresolved} is not defined in the POMs read (a parent outside the tree, a profile or -D; or it refers to itself, or grows past ${MAX_VALUE_CHARS} characters); only Maven knows it.`,
        };
      }
      return {
        spec: resolved.value,
        source: 'property',
        via: resolved.via,
        definedAt: resolved.at === undefined ? undefined : this.editable([resolved.at], lineage),
      };
    }
    if (managed === undefined) {
      return {
        source: 'none',
        unknown: 'no version and no <dependencyManagement> entry for it: Maven refuses this POM.',
      };
    }
    if (!('entry' in managed)) return { source: managed.source, via: managed.via, unknown: managed.reason };
    // The line to edit is where the managed version is written (a property's definition when it names one),
    // and a BOM's property resolves against the BOM's own lineage, not the importer's.
    const { entry } = managed;
    const where = `${managed.pom.file}:${entry.at.line} <dependencyManagement>`;
    const source = managed.boms.length > 0 ? 'bom' : managed.pom === pom ? 'dependency-management' : 'parent';
    const through = managed.boms.length > 0 ? `${managed.boms.join(' → ')} ` : '';
    if (entry.version === undefined) {
      return {
        source,
        via: `${through}${where}`,
        unknown: `the <dependencyManagement> entry at ${managed.pom.file}:${entry.at.line} has no version: Maven refuses this POM.`,
      };
    }
    const resolved = resolveProperties(entry.version, managed.lineage);
    return {
      spec: resolved.unresolved === undefined ? resolved.value : undefined,
      source,
      via: `${through}${where}${resolved.via === undefined ? '' : ` \${${resolved.via}}`}`,
      definedAt: this.editable(
        [resolved.at, entry.versionAt ?? entry.at, ...[...managed.imports].reverse()],
        lineage,
      ),
      ...(resolved.unresolved === undefined
        ? {}
        : { unknown: `the property ${resolved.unresolved} cannot be resolved from the POMs read.` }),
    };
  }

  /**
   * The line to edit for a version: the first of `candidates` (nearest the value first) in the tree — a
   * repository POM is not the build's to edit — else the <parent> line through which the lineage reaches the
   * repository.
   */
  private editable(
    candidates: ReadonlyArray<SourceLocation | undefined>,
    lineage: readonly Pom[],
  ): SourceLocation {
    const inTree = candidates.find((at) => at !== undefined && this.treeFiles.has(at.file));
    if (inTree !== undefined) return inTree;
    const last = lineage.filter((pom) => this.inTree(pom)).pop();
    return last?.parent?.at ?? (candidates.find((at) => at !== undefined) as SourceLocation);
  }

  /** `groupId:artifactId` with the groupId's properties resolved in `lineage` (how a BOM is named). */
  private keyOf(dependency: PomDependency, lineage: readonly Pom[]): string {
    return `${resolveProperties(dependency.groupId, lineage).value}:${dependency.artifactId}`;
  }

  /**
   * What Maven matches a dependency with its managed entry by: `groupId:artifactId`, the type and the classifier
   * (a BOM manages `guice` and `guice:classes` apart, and may give them different versions).
   */
  private managementKey(dependency: PomDependency, lineage: readonly Pom[]): string {
    return `${this.keyOf(dependency, lineage)}:${dependency.type ?? 'jar'}:${dependency.classifier ?? ''}`;
  }

  /**
   * A POM's managed entries in Maven's precedence: its lineage's own entries (nearest POM first), then — unless
   * the lineage ends at a parent outside the tree, whose entries would come first — each import in order.
   * `stack`: the BOMs being read, the POM asked about first, to refuse a cycle and cap the depth.
   */
  private managementOf(pom: Pom, stack: readonly Pom[]): Management {
    const known = this.management.get(pom);
    if (known !== undefined && known !== 'in progress') return known;
    this.management.set(pom, 'in progress');
    const lineage = this.lineageOf(pom);
    const own = new Map<string, Managed>();
    const imports: PomDependency[] = [];
    const importKeys = new Set<string>();
    for (const owner of lineage) {
      for (const entry of owner.managed) {
        const key = this.keyOf(entry, lineage);
        if (entry.scope === 'import') {
          // The same BOM imported by a child and a parent: the child's import (its version) is the one.
          if (!importKeys.has(key)) imports.push(entry);
          importKeys.add(key);
        } else {
          const managed = this.managementKey(entry, lineage);
          if (!own.has(managed)) own.set(managed, { entry, pom: owner, lineage, boms: [], imports: [] });
        }
      }
    }
    const last = lineage[lineage.length - 1] as Pom;
    const outside = last.parent;
    const result: Management = { own, imports: [], found: new Map() };
    result.gap =
      outside === undefined
        ? this.importInto(result, imports, lineage, stack)
        : {
            source: 'parent',
            via: `${outside.groupId ?? '?'}:${outside.artifactId ?? '?'}`,
            reason: `the version comes from the parent ${outside.groupId ?? '?'}:${outside.artifactId ?? '?'}:${outside.version ?? '?'}, which is ${this.whyNotRead(last, lineage)} (its <dependencyManagement> comes before any imported BOM's); only Maven (resolve: true) knows it.`,
          };
    this.management.set(pom, result);
    return result;
  }

  /** Why the parent of `last`, the end of `lineage`, is not read. */
  private whyNotRead(last: Pom, lineage: readonly Pom[]): string {
    if (lineage.length >= MAX_PARENT_DEPTH) {
      return `past the ${MAX_PARENT_DEPTH} parents read (a longer chain is not followed)`;
    }
    const coordinates = parentCoordinates(last);
    const inTree = this.inTree(last) ? 'not in the tree' : 'a parent of a repository POM';
    if (this.repository === undefined) return `${inTree} (${REPOSITORY_NOT_READ})`;
    if (coordinates === undefined)
      return `${inTree}, and its coordinates are not plain (a property or a range)`;
    const found = this.repository.pomAt(coordinates);
    return typeof found === 'string'
      ? `${inTree} and ${found}`
      : 'in a cycle of parents (Maven refuses this build)';
  }

  /** Adds each import's management, in order; the gap where reading stops, if any. */
  private importInto(
    importer: Management,
    imports: readonly PomDependency[],
    lineage: readonly Pom[],
    stack: readonly Pom[],
  ): Gap | undefined {
    // A BOM of the repository not read yet: its later imports are still asked for (read in the same round),
    // and this reading is done again with them (MavenRepository), so the gap is never the answer.
    let pending: Gap | undefined;
    for (const entry of imports) {
      const name = this.keyOf(entry, lineage);
      const version = resolveProperties(entry.version ?? '', lineage);
      const coordinates = `${name}:${version.unresolved === undefined ? version.value : (entry.version ?? '')}`;
      const candidates = version.unresolved === undefined ? this.pomsAt(coordinates) : [];
      let bom = candidates.length === 1 ? candidates[0] : undefined;
      if (candidates.length > 1) {
        const files = candidates.map((pom) => pom.file).join(', ');
        return {
          source: 'bom',
          via: name,
          reason: `${candidates.length} POMs of the tree are ${coordinates} (${files}): Maven refuses a reactor holding both, and which one it imports otherwise is the repository's; only Maven (resolve: true) knows it.`,
        };
      }
      if (bom === undefined && version.unresolved !== undefined) {
        return {
          source: 'bom',
          via: name,
          reason: `the imported BOM ${name}'s version names the property ${version.unresolved}, not defined in the POMs read; only Maven (resolve: true) knows it.`,
        };
      }
      if (bom === undefined) {
        const found = isPlainVersion(version.value)
          ? (this.repository?.pomAt(coordinates) ?? REPOSITORY_NOT_READ)
          : `its version ${version.value} is a range or not a plain version`;
        if (typeof found === 'string') {
          const gap: Gap = {
            source: 'bom',
            via: name,
            reason: `the version comes from the imported BOM ${coordinates}, which is not a POM in the tree (${found}); only Maven (resolve: true) knows it.`,
          };
          if (this.repository?.isPending(found) !== true) return pending ?? gap;
          pending ??= gap;
          continue;
        }
        bom = found;
      }
      if (stack.includes(bom)) {
        const cycle = [...stack.slice(stack.indexOf(bom)), bom].map((pom) => pom.file).join(' → ');
        return {
          source: 'bom',
          via: name,
          reason: `the BOMs import each other in a cycle (${cycle}): Maven refuses this build.`,
          refused: true,
        };
      }
      if (stack.length > MAX_BOM_DEPTH) {
        return (
          pending ?? {
            source: 'bom',
            via: name,
            reason: `BOMs import BOMs more than ${MAX_BOM_DEPTH} deep here; not followed further, only Maven (resolve: true) knows it.`,
          }
        );
      }
      const imported = this.managementOf(bom, [...stack, bom]);
      importer.imports.push({ coordinates, management: imported, at: entry.versionAt ?? entry.at });
      if (imported.gap !== undefined) {
        return pending ?? { ...imported.gap, via: `${coordinates} → ${imported.gap.via}` };
      }
    }
    return pending;
  }

  /**
   * The tree's POMs with these `groupId:artifactId:version` (each POM's own resolved in its lineage): more than
   * one is no answer, never the first one met.
   */
  private pomsAt(coordinates: string): readonly Pom[] {
    if (this.byCoordinates === undefined) {
      this.byCoordinates = new Map();
      for (const pom of this.poms) {
        const lineage = this.lineageOf(pom);
        const group = resolveProperties(pom.groupId ?? '', lineage);
        const version = resolveProperties(pom.version ?? '', lineage);
        if (group.unresolved !== undefined || version.unresolved !== undefined) continue;
        const key = `${group.value}:${pom.artifactId}:${version.value}`;
        const same = this.byCoordinates.get(key);
        if (same === undefined) this.byCoordinates.set(key, [pom]);
        else same.push(pom);
      }
    }
    return this.byCoordinates.get(coordinates) ?? [];
  }
}

const REPOSITORY_NOT_READ =
  'the local Maven repository is not read: the operator starts the server with --read-maven-repository for that';

/** A version Maven would look up as it is: not a range (`[1.0,2.0)`), not empty. */
function isPlainVersion(version: string): boolean {
  return version !== '' && !/[[\](),]/.test(version) && !version.includes('${');
}

/** `g:a:v` of the POM's <parent>, when all three are written plainly (no property, no range). */
function parentCoordinates(pom: Pom): string | undefined {
  const { groupId, artifactId, version } = pom.parent ?? {};
  if (groupId === undefined || artifactId === undefined || version === undefined) return undefined;
  if (groupId.includes('${') || artifactId.includes('${') || !isPlainVersion(version)) return undefined;
  return `${groupId}:${artifactId}:${version}`;
}
