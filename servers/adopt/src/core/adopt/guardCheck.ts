// What the guard script (guardScript.ts) checks, evaluated by the server itself on the confined checkout,
// so adopt_repo can tell the guard will pass without running anything from the repository. guard.test.ts
// holds both to the same verdicts on the same repositories.
import type { CheckoutFiles } from '../files/checkoutFiles.js';
import { GUARD_SCRIPT, GUARD_SCRIPT_PATH } from './guardScript.js';

/** The guard's complaints about the checkout, worded as the script words them; empty when it would pass. */
export async function checkGuard(files: CheckoutFiles): Promise<string[]> {
  const problems: string[] = [];
  const nonEmpty = async (file: string) => ((await files.read(file)) ?? '') !== '';
  if ((await files.read(GUARD_SCRIPT_PATH)) !== GUARD_SCRIPT)
    problems.push(`${GUARD_SCRIPT_PATH} is not the guard adopt_repo wrote`);
  for (const file of ['AGENTS.md', 'CLAUDE.md']) {
    if (!(await nonEmpty(file)) && !(await nonEmpty(`.claude/${file}`)))
      problems.push(`${file} is missing or empty`);
  }
  const claudeMd = (await files.read('CLAUDE.md')) ?? '';
  if (
    claudeMd !== '' &&
    !(await files.sameFile('CLAUDE.md', 'AGENTS.md')) &&
    !claudeMd.includes('AGENTS.md')
  ) {
    problems.push('CLAUDE.md does not refer to AGENTS.md (add the line @AGENTS.md)');
  }
  for (const skill of await files.list('.claude/skills')) {
    const file = `.claude/skills/${skill.name}/SKILL.md`;
    if (skill.kind !== 'directory' || (await files.kind(file)) === undefined) continue;
    problems.push(...skillProblems(file, skill.name, (await files.read(file)) ?? ''));
  }
  for (const file of ['.claude/settings.json', '.mcp.json']) {
    const text = (await files.kind(file)) === 'file' ? await files.read(file) : undefined;
    if (text !== undefined && !isJson(text)) problems.push(`${file} is not valid JSON`);
  }
  return problems;
}

/** The script's awk pass for one skill: front matter, a `name` (when given) equal to the folder, a description. */
function skillProblems(file: string, folder: string, text: string): string[] {
  if (text === '') return [`${file} is empty`];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0] !== '---') return [`${file} has no front matter`];
  let hasName = false;
  let named = false;
  let described = false;
  // `description:` alone on its line, continued on indented lines below.
  let pending = false;
  for (const line of lines.slice(1)) {
    if (line === '---') break;
    if (pending && /^[ \t]+[^ \t]/.test(line)) described = true;
    pending = false;
    const name = /^name:[ \t]*(.*)$/.exec(line);
    if (name !== null) hasName = true;
    if (name !== null && (name[1] ?? '').replace(/["' \t]/g, '') === folder) named = true;
    if (/^description:[ \t]*[^ \t]/.test(line)) described = true;
    if (/^description:[ \t]*$/.test(line)) pending = true;
  }
  return [
    ...(hasName && !named ? [`${file} must be named ${folder}`] : []),
    ...(described ? [] : [`${file} has no description`]),
  ];
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
