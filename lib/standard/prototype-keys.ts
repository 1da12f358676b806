// Finds own "__proto__" keys in parsed JSON: copying one by assignment would set an object's prototype, so such input is refused.
import type { PathSegment } from "./diagnostics";

/** The one key that, assigned as `target[key] = value`, replaces the target's prototype instead of adding data. */
export const PROTOTYPE_KEY = "__proto__";

/** A path kept as a link to its parent, so walking a deep value never copies long paths. */
interface PathLink {
  parent: PathLink | undefined;
  segment: PathSegment;
}

function pathOf(link: PathLink | undefined): PathSegment[] {
  const segments: PathSegment[] = [];
  for (let current = link; current !== undefined; current = current.parent) segments.push(current.segment);
  return segments.reverse();
}

/**
 * Paths of every own "__proto__" key in `value` (as `JSON.parse` makes them).
 * Walked with an explicit stack, never recursion, so any depth is safe.
 */
export function findPrototypeKeys(value: unknown): PathSegment[][] {
  const found: PathSegment[][] = [];
  const pending: [unknown, PathLink | undefined][] = [[value, undefined]];
  while (pending.length > 0) {
    const [current, link] = pending.pop() as [unknown, PathLink | undefined];
    if (current === null || typeof current !== "object") continue;
    const children: [unknown, PathLink][] = [];
    if (Array.isArray(current)) {
      for (const [index, item] of current.entries()) children.push([item, { parent: link, segment: index }]);
    } else {
      for (const key of Object.keys(current)) {
        const child: PathLink = { parent: link, segment: key };
        if (key === PROTOTYPE_KEY) found.push(pathOf(child));
        children.push([Reflect.get(current, key), child]);
      }
    }
    for (let index = children.length - 1; index >= 0; index--) pending.push(children[index]!);
  }
  return found;
}
