// Completes an argument that holds a comma-separated list (`paths`, `columns`), as tools' `stringList`
// arguments accept one: the last item is completed by another completer, the items before it are kept.
import type { Completer } from './prompt.js';

/**
 * Wraps `item` (the completer of one entry) for a comma-separated list: `a.csv, b` offers `a.csv, b.csv`
 * and the like, leaving out entries already listed and values holding a comma (which a list cannot carry).
 *
 * @example complete: completeListItem(completePath({ kind: 'any' }))
 */
export function completeListItem(item: Completer): Completer {
  return async (request, ctx) => {
    const comma = request.value.lastIndexOf(',');
    const listed = request.value.slice(0, comma + 1);
    const typed = request.value.slice(comma + 1).trimStart();
    const separator = listed === '' || listed.endsWith(' ') ? '' : ' ';
    const taken = new Set(listed.split(',').map((entry) => entry.trim()));
    const offered = await item({ value: typed, arguments: request.arguments }, ctx);
    const kept = offered.values.filter((value) => !value.includes(',') && !taken.has(value));
    const dropped = offered.values.length - kept.length;
    return {
      values: kept.map((value) => `${listed}${separator}${value}`),
      ...(offered.total === undefined ? {} : { total: offered.total - dropped }),
      ...(offered.hasMore === undefined ? {} : { hasMore: offered.hasMore }),
    };
  };
}
