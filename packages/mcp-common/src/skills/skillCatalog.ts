// Serves a server's skills folder through the `io.modelcontextprotocol/skills` extension (SEP-2640):
// `skills/list`, `skills/get`, each file a `skill://<skill>/<path>` resource (`resources/read`), each SKILL.md
// listed in `resources/list`. (`resources/directory/read` is optional and not offered: skills/list already
// names every file.) The folder is read on the
// first request that needs it, never at start-up, and then kept (it ships with the server and does not change).
import { fileURLToPath } from 'node:url';
import { ConfinedDirectory } from '../files/confinedDirectory.js';
import type { Logger } from '../logger.js';
import { maskSecrets } from '../masking/masking.js';
import { RpcError, RpcErrorCode } from '../protocol/rpcError.js';
import { readSkills, type Skill, type SkillFile } from './skillFolder.js';

export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/** What the extension declares under `capabilities.extensions`: supported, no optional features. */
export const SKILLS_CAPABILITY = {} as const;

interface SkillEntry {
  uri: string;
  frontmatter: Record<string, unknown>;
  resources: Array<{ uri: string; digest: string; size: number }>;
}

interface Served {
  entries: SkillEntry[];
  byUri: Map<string, { skill: Skill; file: SkillFile }>;
}

export class SkillCatalog {
  private served: Promise<Served> | undefined;

  constructor(
    private readonly folder: URL,
    private readonly logger: Logger,
  ) {}

  async list(params: Record<string, unknown>): Promise<{ skills: SkillEntry[] }> {
    // One page holds every skill (at most 100), so no cursor is ever handed out.
    if (params.cursor !== undefined)
      throw new RpcError(RpcErrorCode.InvalidParams, 'Invalid cursor: skills/list has a single page.');
    return { skills: (await this.load()).entries };
  }

  async get(params: Record<string, unknown>): Promise<{ skill: SkillEntry }> {
    const uri = params.uri;
    const entry = (await this.load()).entries.find((candidate) => candidate.uri === uri);
    if (entry === undefined) {
      throw new RpcError(
        RpcErrorCode.InvalidParams,
        `Unknown skill '${clip(uri)}'; skills/list names the skills served.`,
        { uri: typeof uri === 'string' ? clip(uri) : null },
      );
    }
    return { skill: entry };
  }

  /** Each skill's SKILL.md as a resource, named and described by its frontmatter. */
  async resources(): Promise<Array<Record<string, unknown>>> {
    return (await this.load()).entries.map((entry) => ({
      uri: entry.uri,
      name: entry.frontmatter.name,
      description: entry.frontmatter.description,
      mimeType: 'text/markdown',
      size: entry.resources[0]?.size,
    }));
  }

  /** The contents of a skill file, or undefined when `uri` is not one (the caller tries its other resources). */
  async read(uri: string): Promise<{ contents: Array<Record<string, unknown>> } | undefined> {
    if (!uri.startsWith('skill://')) return undefined;
    const found = (await this.load()).byUri.get(uri);
    if (found === undefined) return undefined;
    const mimeType = mimeTypeOf(found.file.path);
    const text = utf8Text(found.file.bytes);
    return {
      contents: [
        text === undefined
          ? {
              uri,
              mimeType: mimeType ?? 'application/octet-stream',
              blob: found.file.bytes.toString('base64'),
            }
          : { uri, mimeType: mimeType ?? 'text/plain', text },
      ],
    };
  }

  private load(): Promise<Served> {
    this.served ??= this.readFolder();
    return this.served;
  }

  private async readFolder(): Promise<Served> {
    let skills: Skill[] = [];
    try {
      // The folder is its own boundary: no link below it may lead out, even elsewhere on the disk.
      await using folder = await ConfinedDirectory.confinedTo(fileURLToPath(this.folder));
      skills = await readSkills(folder, this.logger);
    } catch (error) {
      this.logger.error({ err: error }, 'the skills folder could not be read; no skills are served');
    }
    const byUri = new Map<string, { skill: Skill; file: SkillFile }>();
    const entries = skills.map((skill) => {
      const base = `skill://${skill.name}`;
      const resources = skill.files.map((file) => {
        const uri = `${base}/${file.path.split('/').map(encodeURIComponent).join('/')}`;
        byUri.set(uri, { skill, file });
        return { uri, digest: file.digest, size: file.bytes.length };
      });
      return { uri: `${base}/SKILL.md`, frontmatter: skill.frontmatter, resources };
    });
    this.logger.debug({ skills: entries.length }, 'skills folder read');
    return { entries, byUri };
  }
}

const MIME_TYPES: Record<string, string> = {
  md: 'text/markdown',
  txt: 'text/plain',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  csv: 'text/csv',
  html: 'text/html',
  js: 'text/javascript',
  mjs: 'text/javascript',
  ts: 'text/x-typescript',
  py: 'text/x-python',
  sh: 'text/x-shellscript',
};

function mimeTypeOf(path: string): string | undefined {
  const dot = path.lastIndexOf('.');
  return dot === -1 ? undefined : MIME_TYPES[path.slice(dot + 1).toLowerCase()];
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The bytes as text when they are UTF-8 without NUL bytes (so the text's bytes are the digested bytes). */
function utf8Text(bytes: Buffer): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return decoder.decode(bytes);
  } catch {
    return undefined;
  }
}

function clip(value: unknown): string {
  const text = String(value);
  return maskSecrets(text.length > 200 ? `${text.slice(0, 200)}…` : text);
}
