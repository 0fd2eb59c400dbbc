// Cycles among a system's modules (strongly connected components of its dependency and parent edges, Tarjan),
// reported instead of followed: a build whose modules depend on each other in a ring is answered, not looped on.
import type { BuildSystemModel } from './model.js';

/** Each cycle as its module ids in edge order, the first repeated at the end. */
export function moduleCycles(system: BuildSystemModel): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of system.edges) {
    if (edge.kind === 'aggregates' || edge.from === edge.to) continue;
    const targets = next.get(edge.from) ?? [];
    if (!targets.includes(edge.to)) targets.push(edge.to);
    next.set(edge.from, targets);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let counter = 0;
  // Iterative, so a ring of thousands of modules cannot overflow the call stack.
  for (const start of [...next.keys()].sort()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; child: number }> = [{ node: start, child: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1] as { node: string; child: number };
      const targets = next.get(frame.node) ?? [];
      if (frame.child < targets.length) {
        const target = targets[frame.child++] as string;
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, child: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node) as number, index.get(target) as number));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined)
        low.set(parent.node, Math.min(low.get(parent.node) as number, low.get(frame.node) as number));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string | undefined;
        do {
          member = stack.pop() as string;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        if (component.length > 1) components.push(orderedCycle(component, next));
      }
    }
  }
  return components;
}

/** A walk through the component from its smallest id back to it, so the cycle reads as edges. */
function orderedCycle(component: string[], next: Map<string, string[]>): string[] {
  const members = new Set(component);
  const start = [...component].sort()[0] as string;
  const path = [start];
  const seen = new Set([start]);
  let current = start;
  for (;;) {
    const targets = (next.get(current) ?? []).filter((target) => members.has(target));
    if (targets.includes(start) && path.length > 1) break;
    const step = targets.find((target) => !seen.has(target)) ?? targets.find((target) => target === start);
    if (step === undefined || step === start) break;
    path.push(step);
    seen.add(step);
    current = step;
  }
  path.push(start);
  return path;
}
