// Reads a server's Agent Skills folder (`<skill>/SKILL.md` plus supporting files) once, through descriptor
// handles confined to the folder itself: a link that leads out of it is never followed, and every count and
// size is capped (SEP-2640's 512 files and 16 MiB per skill). A skill that breaks a rule is left out whole
// and logged — a partial skill would fail the clients' digest checks.
import { createHash } from 'node:crypto';
import type { ConfinedDirectory } from '../files/confinedDirectory.js';
import type { Logger } from '../logger.js';
import { ToolError } from '../tools/toolError.js';

export const SKILL_LIMITS = {
  /** Skills served from one folder. */
  maxSkills: 100,
  /** Files per skill, SKILL.md included (SEP-2640). */
  maxFilesPerSkill: 512,
  /** Bytes per skill, summed over its files (SEP-2640). */
  maxSkillBytes: 16 * 1024 * 1024,
  /** Bytes of all skills together (they are held in memory once read). */
  maxTotalBytes: 32 * 1024 * 1024,
  /** Folder depth below a skill's own folder. */
  maxDepth: 8,
};

/** The Agent Skills naming rule for a skill's name (and so its folder). */
const SKILL_NAME = /^(?!.*--)[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$/;

export interface SkillFile {
  /** `/`-separated, relative to the skill's folder (`SKILL.md`, `templates/report.md`). */
  path: string;
  bytes: Buffer;
  /** `sha256:<64 lowercase hex>` of the bytes. */
  digest: string;
}

export interface Skill {
  name: string;
  /** SKILL.md's YAML frontmatter, parsed: `name` and `description` at least. */
  frontmatter: Record<string, unknown>;
  /** SKILL.md first, then the others by path. */
  files: SkillFile[];
}

class SkillRefused extends Error {}

/** Every valid skill of `folder` (an own-boundary handle on the skills folder), sorted by name. */
export async function readSkills(folder: ConfinedDirectory, logger: Logger): Promise<Skill[]> {
  const { parse } = await import('yaml');
  const skills: Skill[] = [];
  let totalBytes = 0;
  const names: string[] = [];
  for await (const entry of folder.entries()) {
    if (entry.kind === 'directory' && !entry.name.startsWith('.')) names.push(entry.name);
  }
  for (const name of names.sort()) {
    if (skills.length === SKILL_LIMITS.maxSkills) {
      logger.warn({ skill: name }, `skills beyond ${SKILL_LIMITS.maxSkills} are not served`);
      break;
    }
    try {
      if (!SKILL_NAME.test(name))
        throw new SkillRefused('its folder name breaks the Agent Skills naming rule');
      await using directory = await folder.openDirectory(name);
      const files = await readFiles(directory);
      const manifest = files.find((file) => file.path === 'SKILL.md');
      if (manifest === undefined) throw new SkillRefused('it has no SKILL.md');
      const frontmatter = frontmatterOf(manifest.bytes.toString('utf8'), parse);
      if (frontmatter.name !== name) {
        throw new SkillRefused(
          `its frontmatter name ${JSON.stringify(frontmatter.name)} is not its folder name`,
        );
      }
      const bytes = files.reduce((sum, file) => sum + file.bytes.length, 0);
      if (totalBytes + bytes > SKILL_LIMITS.maxTotalBytes)
        throw new SkillRefused('the skills folder is over its size limit');
      totalBytes += bytes;
      skills.push({ name, frontmatter, files: [manifest, ...files.filter((file) => file !== manifest)] });
    } catch (error) {
      if (!(error instanceof SkillRefused || error instanceof ToolError)) throw error;
      logger.warn({ skill: name, reason: error.message }, 'skill not served');
    }
  }
  return skills;
}

/** Every regular file below the skill's folder (links followed only inside the skills folder). */
async function readFiles(skill: ConfinedDirectory): Promise<SkillFile[]> {
  const files: SkillFile[] = [];
  let bytes = 0;
  const visit = async (directory: ConfinedDirectory, prefix: string, depth: number): Promise<void> => {
    const entries = [];
    for await (const entry of directory.entries()) entries.push(entry);
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = `${prefix}${entry.name}`;
      if (entry.kind === 'directory') {
        if (depth === SKILL_LIMITS.maxDepth) throw new SkillRefused(`'${path}' is nested too deep`);
        await using child = await directory.openDirectory(entry.name);
        await visit(child, `${path}/`, depth + 1);
        continue;
      }
      // A link to a folder is not walked (no cycles); a link to a file is read if it stays inside.
      if (entry.kind !== 'regular file' && entry.kind !== 'symbolic link') continue;
      let content: Buffer;
      try {
        await using file = await directory.openFile(entry.name);
        if (files.length === SKILL_LIMITS.maxFilesPerSkill) throw new SkillRefused('it has too many files');
        content = await file.read({ maxBytes: SKILL_LIMITS.maxSkillBytes - bytes });
      } catch (error) {
        if (entry.kind === 'symbolic link' && error instanceof ToolError && error.code !== 'FILE_TOO_LARGE')
          continue;
        if (error instanceof ToolError && error.code === 'FILE_TOO_LARGE')
          throw new SkillRefused('it is over its size limit');
        throw error;
      }
      bytes += content.length;
      files.push({
        path,
        bytes: content,
        digest: `sha256:${createHash('sha256').update(content).digest('hex')}`,
      });
    }
  };
  await visit(skill, '', 0);
  return files;
}

// As the Agent Skills format (and the conformance suite) reads it: a `---` block at the very start.
const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

function frontmatterOf(text: string, parse: (source: string) => unknown): Record<string, unknown> {
  const block = FRONTMATTER.exec(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  if (block === null) throw new SkillRefused('its SKILL.md has no frontmatter');
  let parsed: unknown;
  try {
    parsed = parse(block[1] as string);
  } catch {
    throw new SkillRefused('its SKILL.md frontmatter is not valid YAML');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new SkillRefused('its SKILL.md frontmatter is not a mapping');
  }
  const frontmatter = parsed as Record<string, unknown>;
  for (const field of ['name', 'description']) {
    if (typeof frontmatter[field] !== 'string' || frontmatter[field] === '') {
      throw new SkillRefused(`its SKILL.md frontmatter has no ${field}`);
    }
  }
  return frontmatter;
}
