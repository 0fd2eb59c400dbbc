// Fits a list into one answer: the longest run of items from an offset whose whole answer fits the call's
// budget, and the paging fields (`truncated`, `total`, `next_cursor`) that say what was left out. The one way a
// groundwork tool bounds a list.
import { type AnswerBudget, answerBudget } from './answerBudget.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { withinTokens } from './tokenCount.js';

/** The paging fields of a list answer (pagingOutput is their schema). */
export interface Paging {
  truncated: boolean;
  total: number;
  next_cursor?: string;
}

export interface FitOptions<T, Answer> {
  /** Usually `ctx.answer`. */
  budget: AnswerBudget;
  /**
   * The cursor the client sent (the tool's `cursor` argument, as given): the page starts where it says, or at
   * the top without one. A cursor this list did not hand out (malformed, another list's, or this list's
   * before it changed) is refused, naming `cursorArgument`.
   */
  cursor?: string | undefined;
  /** The argument the cursor came in, for the refusal; `cursor` by default. */
  cursorArgument?: string;
  /** Ties the cursors to their list (cursorKey); without it, no cursor is taken or handed out. */
  cursorKey?: string;
  /** At most this many items in one page (a tool's `limit` argument), however many would fit. */
  maxItems?: number;
  /** The whole answer around a run of items: measured as the client will see it, paging fields included. */
  frame: (items: T[], paging: Paging) => Answer;
}

export interface Fitted<T, Answer> {
  /** The framed answer of the page: what the tool returns. */
  answer: Answer;
  items: T[];
  /** Where the next page starts; absent on the last page. */
  nextOffset?: number;
}

/**
 * The longest run of `items` from `offset` whose answer (`frame` of it, as JSON) fits `budget`. An item too
 * large to fit even alone is skipped (the cursor moves past it), so paging always ends; tools keep single
 * items small (cut long values) so that never happens.
 *
 * @example
 * const { answer } = await fitList(findings, {
 *   budget: ctx.answer,
 *   cursor: args.cursor,
 *   cursorKey: cursorKey({ tool: 'verify_repo', path: args.path, total: findings.length }),
 *   frame: (page, paging) => ({ counts, findings: page, ...paging }),
 * });
 */
export async function fitList<T, Answer>(
  items: readonly T[],
  options: FitOptions<T, Answer>,
): Promise<Fitted<T, Answer>> {
  const { budget, frame, cursorKey } = options;
  const total = items.length;
  const offset = Math.min(startOf(options), total);
  const last = Math.min(total, offset + (options.maxItems ?? total));
  const pagingTo = (end: number): Paging => ({
    truncated: end < total,
    total,
    ...(end < total && cursorKey !== undefined ? { next_cursor: encodeCursor(end, cursorKey) } : {}),
  });
  const pageTo = (
    end: number,
    run = items.slice(offset, end),
    paging = pagingTo(end),
  ): Fitted<T, Answer> => ({
    answer: frame(run, paging),
    items: run,
    ...(end < total ? { nextOffset: end } : {}),
  });
  // Counting tokens costs far more than measuring characters, and for most answers the characters bind first:
  // find the longest run whose answer fits the characters, then count its tokens once (and search below it
  // by tokens only when they bind).
  const charsOf = (end: number) => (JSON.stringify(pageTo(end).answer) ?? '').length;
  // A first guess: where the items' JSON alone would exceed the characters (but one item at least).
  let high = offset;
  const emptyChars = JSON.stringify(frame([], pagingTo(offset)))?.length ?? 0;
  let chars = emptyChars;
  while (high < last) {
    chars += (JSON.stringify(items[high])?.length ?? 4) + 1;
    if (chars > budget.maxChars && high > offset) break;
    high++;
  }
  let low = offset;
  const guessChars = charsOf(high);
  if (guessChars <= budget.maxChars) {
    // The guess counts a little more than the JSON holds (a separator per item, the cursor): one more may fit.
    while (high < last && charsOf(high + 1) <= budget.maxChars) high++;
    low = high;
  } else {
    // The frame outweighs the guess (build_workspace: each module brings its edges): the longest run that fits
    // the characters, below it. Each probe goes where the line through the last two runs measured reaches the
    // budget (a secant step: past a first heavy item, such as a reactor root with every module's edge, the
    // characters grow by about the same per item), so a list takes four or five renders, not bisection's ten
    // (each a render of up to the whole answer). Past a few such probes (uneven items), it halves.
    let previous = { end: offset, chars: emptyChars };
    let latest = { end: high, chars: guessChars };
    for (let probes = 0; high - low > 1; probes++) {
      const perItem = (latest.chars - previous.chars) / (latest.end - previous.end);
      const probe =
        probes < SECANT_PROBES && perItem > 0
          ? latest.end + Math.floor((budget.maxChars - latest.chars) / perItem)
          : Math.floor((low + high) / 2);
      const middle = Math.min(high - 1, Math.max(low + 1, probe));
      const measured = charsOf(middle);
      if (measured <= budget.maxChars) low = middle;
      else high = middle;
      previous = latest;
      latest = { end: middle, chars: measured };
    }
  }
  // The page measured for its tokens is the page answered, unless the tokens bind.
  let fitted = low > offset ? pageTo(low) : undefined;
  if (fitted !== undefined && !(await answerFits(fitted.answer, budget))) {
    // The tokens bind: the longest run that fits them, below the characters' run.
    fitted = undefined;
    high = low;
    low = offset;
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2);
      if (await answerFits(pageTo(middle).answer, budget)) low = middle;
      else high = middle;
    }
  }
  // Not even one item fits: skip it, so that the next page starts after it and paging always ends.
  if (low === offset && offset < last) {
    return pageTo(offset + 1, [], { ...pagingTo(offset + 1), truncated: true });
  }
  return fitted ?? pageTo(low);
}

/** Probes of the characters' search placed by a secant step before it falls back to halving. */
const SECANT_PROBES = 4;

/** Where the page starts: at the cursor, checked against its list, or at the top. */
function startOf(
  options: Pick<FitOptions<unknown, unknown>, 'cursor' | 'cursorArgument' | 'cursorKey'>,
): number {
  if (options.cursor === undefined) return 0;
  if (options.cursorKey === undefined) throw new Error('fitList was given a cursor without its cursorKey');
  return decodeCursor(options.cursor, options.cursorKey, options.cursorArgument);
}

/**
 * Whether `answer` (a text block, or a value as the text the client will get: the budget's rendering, else
 * its JSON) fits `budget`.
 */
export async function answerFits(answer: unknown, budget: AnswerBudget = answerBudget()): Promise<boolean> {
  const json =
    typeof answer === 'string' ? answer : (budget.render?.(answer) ?? JSON.stringify(answer) ?? '');
  return json.length <= budget.maxChars && (await withinTokens(json, budget.maxTokens));
}
