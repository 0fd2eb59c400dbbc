// The commits that likely caused a failure (or a cluster of them): among the commits between a good state and
// the bad one, those that wrote the lines its failing frames name, or changed the files of those frames and of
// the code under test, ranked by how directly they touch where it failed.
//
// Score of a commit (the sum over the failure's evidence, see failureEvidence.ts):
// - for each line of a failing frame (weight w: 1 for the innermost frame of code under test in every
//   failure examined, 1/2, 1/3… for outer ones, half that for the test's own frames) and each of the lines
//   within 2 of it that this commit last wrote (blame of the bad state over the range): w × 1, ½, ¼ by
//   distance;
// - for each frame file it changed: 0.25 × the file's highest frame weight; for each file of the code under
//   test that no frame names (imported by the failing test files, or named like them) it changed: 0.1.
// Ties go to the newer commit. A frame line a commit wrote outweighs any number of commits that merely
// touched its file, which is what makes the commit that introduced a bug on a failing line rank first.
import type { GitRepository } from '@groundwork/mcp-common/git';
import type { FailureEvidence, LineEvidence } from './failureEvidence.js';
import {
  blameLines,
  type CommitInfo,
  commitHunks,
  commitsTouching,
  countCommits,
  type Hunk,
  MAX_RANGE_COMMITS,
  trackedFiles,
} from './gitHistory.js';

export interface SuspectRange {
  /** The good state: changes after it are suspects. Undefined: the whole history of `head`. */
  base?: string;
  head: string;
}

export interface Suspect {
  commit: string;
  author: string;
  /** Author date, ISO 8601. */
  date: string;
  subject: string;
  score: number;
  /** Why it is a suspect, most telling first. */
  reasons: string[];
  /** Lines of the failing frames (in the bad state) this commit last wrote. */
  wrote: { file: string; line: number }[];
  /** What it changed in the files of the evidence. */
  changes: Hunk[];
}

export interface SuspectAnswer {
  suspects: Suspect[];
  /** Commits in the range (up to MAX_RANGE_COMMITS + 1: more reads as "more than"). */
  commits_in_range: number;
  /** Files of the code under test without a frame, tracked in the repository. */
  subjects: string[];
}

const PROXIMITY = [1, 0.5, 0.25];
const FRAME_FILE_TOUCH = 0.25;
const SUBJECT_TOUCH = 0.1;
/** Suspects kept (with their changes): a page of the answer is cut from these. */
export const MAX_SUSPECTS = 100;
const MAX_EVIDENCE_FILES = 20;
const MAX_HUNKS = 6;
const MAX_HUNK_LINES = 12;
const MAX_LINE_CHARS = 200;

export async function findSuspects(
  repo: GitRepository,
  evidence: FailureEvidence,
  range: SuspectRange,
  signal?: AbortSignal,
): Promise<SuspectAnswer> {
  const spec = range.base === undefined ? range.head : `${range.base}..${range.head}`;
  const frameFiles = [...new Set(evidence.lines.map((line) => line.file))].slice(0, MAX_EVIDENCE_FILES);
  const subjects = (await trackedFiles(repo, evidence.subjects, signal))
    .filter((file) => !frameFiles.includes(file))
    .slice(0, MAX_EVIDENCE_FILES);
  const files = [...frameFiles, ...subjects];
  // Independent reads, run side by side: the commits that touched the files, the range's length, and who
  // wrote each frame file's lines (and the lines around them) in the bad state, over the range.
  const framesOf = (file: string) => evidence.lines.filter((line) => line.file === file);
  const [touching, inRange, ...blames] = await Promise.all([
    commitsTouching(repo, spec, files, signal),
    countCommits(repo, spec, MAX_RANGE_COMMITS + 1, signal),
    ...frameFiles.map((file) =>
      blameLines(
        repo,
        file,
        framesOf(file).flatMap((line) => [-2, -1, 0, 1, 2].map((delta) => line.line + delta)),
        range,
        signal,
      ),
    ),
  ]);
  const byCommit = new Map<
    string,
    { info: CommitInfo; score: number; reasons: Reason[]; wrote: LineEvidence[] }
  >();
  for (const info of touching) byCommit.set(info.commit, { info, score: 0, reasons: [], wrote: [] });
  frameFiles.forEach((file, at) => {
    const lines = framesOf(file);
    for (const { line, commit } of blames[at] ?? []) {
      const entry = byCommit.get(commit);
      if (entry === undefined) continue;
      for (const frame of lines) {
        const distance = Math.abs(frame.line - line);
        const proximity = PROXIMITY[distance];
        if (proximity === undefined) continue;
        entry.score += frame.weight * proximity;
        if (distance === 0) {
          entry.wrote.push(frame);
          entry.reasons.push({
            weight: frame.weight * 2,
            text: `wrote ${file}:${line}, a failing ${frame.role === 'test' ? 'test' : 'code'} frame (${frame.failures} of ${evidence.examined} failures)`,
          });
        } else {
          entry.reasons.push({
            weight: frame.weight * proximity,
            text: `wrote ${file}:${line}, ${distance} line${distance === 1 ? '' : 's'} from the failing frame ${file}:${frame.line}`,
          });
        }
      }
    }
  });
  for (const entry of byCommit.values()) {
    for (const file of entry.info.files) {
      const frames = evidence.lines.filter((line) => line.file === file);
      if (frames.length > 0) {
        const weight = Math.max(...frames.map((frame) => frame.weight));
        entry.score += FRAME_FILE_TOUCH * weight;
        entry.reasons.push({
          weight: FRAME_FILE_TOUCH * weight,
          text: `changed ${file}, a failing frame's file`,
        });
      } else if (subjects.includes(file)) {
        entry.score += SUBJECT_TOUCH;
        entry.reasons.push({
          weight: SUBJECT_TOUCH,
          text: `changed ${file}, code under test of the failing tests`,
        });
      }
    }
  }
  const ranked = [...byCommit.values()]
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || b.info.time - a.info.time)
    .slice(0, MAX_SUSPECTS);
  const hunks = await commitHunks(
    repo,
    ranked.map((entry) => entry.info.commit),
    files,
    signal,
  );
  return {
    suspects: ranked.map((entry) => ({
      commit: entry.info.commit,
      author: entry.info.author,
      date: new Date(entry.info.time * 1000).toISOString(),
      subject: entry.info.subject,
      score: Math.round(entry.score * 1000) / 1000,
      reasons: summarize(entry.reasons),
      wrote: dedupe(entry.wrote.map((line) => ({ file: line.file, line: line.line }))),
      changes: bounded(hunks.get(entry.info.commit) ?? [], entry.wrote),
    })),
    commits_in_range: inRange,
    subjects,
  };
}

interface Reason {
  weight: number;
  text: string;
}

function summarize(reasons: Reason[]): string[] {
  const texts = [...reasons].sort((a, b) => b.weight - a.weight).map((reason) => reason.text);
  return [...new Set(texts)].slice(0, 5);
}

function dedupe(lines: { file: string; line: number }[]): { file: string; line: number }[] {
  const seen = new Set<string>();
  return lines.filter((line) => {
    const key = `${line.file}:${line.line}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The hunks to show: those of frame files first, each cut to a few lines of a bounded width. */
function bounded(hunks: Hunk[], wrote: LineEvidence[]): Hunk[] {
  const frameFiles = new Set(wrote.map((line) => line.file));
  const cut = (lines: string[]) =>
    lines
      .slice(0, MAX_HUNK_LINES)
      .map((line) => (line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line));
  return [...hunks]
    .sort((a, b) => Number(frameFiles.has(b.file)) - Number(frameFiles.has(a.file)))
    .slice(0, MAX_HUNKS)
    .map((hunk) => ({ ...hunk, removed: cut(hunk.removed), added: cut(hunk.added) }));
}
