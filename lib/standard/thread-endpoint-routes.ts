// File-based routing of thread endpoints (spec Threads §endpoints, §2): how a file under
// `extensions/threads/` becomes a method and a path pattern, and which endpoint answers a request.
// `foo.ts` → GET /foo, `bar.post.ts` → POST /bar, `index.ts` → the folder's path, `[id]` captures one
// segment into params.id, `[*]` (last only) captures zero or more into params["*"]. Static segments
// beat dynamic ones, which beat catch-alls. Pure: the registry parses, the runtime matches.

export const ENDPOINT_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type EndpointMethod = (typeof ENDPOINT_METHODS)[number];

export type RouteSegment =
  | { kind: "static"; value: string }
  | { kind: "param"; name: string }
  | { kind: "catch_all" };

export interface EndpointRoute {
  method: EndpointMethod;
  segments: readonly RouteSegment[];
  /** The path as written, e.g. `/orders/[id]`; `/` for the root. */
  pattern: string;
}

const MODULE_EXTENSION = /\.[mc]?[jt]s$/;
const PARAM = /^\[([A-Za-z_][A-Za-z0-9_]*)\]$/;
const CATCH_ALL = "[*]";

/**
 * The route a file defines, from its path relative to the `threads/` folder (`/`-separated, with its
 * extension), or the reason it defines none.
 */
export function parseEndpointFile(relative: string): EndpointRoute | { problem: string } {
  const parts = relative.replace(MODULE_EXTENSION, "").split("/");
  let name = parts.pop() ?? "";
  let method: EndpointMethod = "GET";
  const dot = name.lastIndexOf(".");
  if (dot > 0) {
    const suffix = name.slice(dot + 1).toUpperCase();
    if ((ENDPOINT_METHODS as readonly string[]).includes(suffix)) {
      method = suffix as EndpointMethod;
      name = name.slice(0, dot);
    }
  }
  const names = name === "index" ? parts : [...parts, name];
  const segments: RouteSegment[] = [];
  const seen = new Set<string>();
  for (const [index, segment] of names.entries()) {
    if (segment === "") return { problem: "a path segment is empty" };
    if (segment === CATCH_ALL) {
      if (index !== names.length - 1)
        return { problem: "a catch-all segment [*] must be the last part of the path (a file name)" };
      segments.push({ kind: "catch_all" });
      continue;
    }
    const param = PARAM.exec(segment);
    if (param) {
      const paramName = param[1]!;
      if (paramName === "__proto__") return { problem: "[__proto__] cannot name a path parameter" };
      if (seen.has(paramName)) return { problem: `the path parameter [${paramName}] appears twice` };
      seen.add(paramName);
      segments.push({ kind: "param", name: paramName });
      continue;
    }
    if (segment.includes("[") || segment.includes("]"))
      return {
        problem: `"${segment}" is not a valid segment: write a parameter as [name] (letters, digits and _) or a catch-all as [*]`,
      };
    segments.push({ kind: "static", value: segment });
  }
  return { method, segments, pattern: `/${names.join("/")}` };
}

/** Routes of the same method and shape answer the same requests: the second is a conflict. */
export function routeShape(route: Pick<EndpointRoute, "method" | "segments">): string {
  const parts = route.segments.map((segment) =>
    segment.kind === "static" ? `s:${segment.value}` : segment.kind === "param" ? "[]" : "[*]",
  );
  return `${route.method} /${parts.join("/")}`;
}

const RANK: Record<RouteSegment["kind"], number> = { static: 0, param: 1, catch_all: 2 };

/** The route's captured params for the path, or null when it does not match. */
function capture(route: EndpointRoute, path: readonly string[]): Record<string, string> | null {
  const params: Record<string, string> = {};
  for (const [index, segment] of route.segments.entries()) {
    if (segment.kind === "catch_all") {
      params["*"] = path.slice(index).join("/");
      return params;
    }
    const value = path[index];
    if (value === undefined || value === "") return null;
    if (segment.kind === "static" && segment.value !== value) return null;
    if (segment.kind === "param") params[segment.name] = value;
  }
  return route.segments.length === path.length ? params : null;
}

/** Negative when `left` takes precedence: position by position, static < param < catch-all < none. */
function comparePrecedence(left: EndpointRoute, right: EndpointRoute): number {
  const length = Math.max(left.segments.length, right.segments.length);
  for (let index = 0; index < length; index++) {
    const a = left.segments[index];
    const b = right.segments[index];
    // A route that already ended matched the path exactly; it beats a catch-all matching nothing.
    const rankA = a ? RANK[a.kind] : -1;
    const rankB = b ? RANK[b.kind] : -1;
    if (rankA !== rankB) return rankA - rankB;
  }
  return 0;
}

export type EndpointMatch<Route extends EndpointRoute> =
  | { kind: "match"; route: Route; params: Record<string, string> }
  /** The path exists with other methods only (answer 405 with Allow). */
  | { kind: "method_not_allowed"; allow: EndpointMethod[] }
  | { kind: "not_found" };

/**
 * The endpoint for a request: the most specific route of that method matching the path segments
 * (already percent-decoded). HEAD is answered by GET endpoints.
 */
export function matchEndpoint<Route extends EndpointRoute>(
  routes: readonly Route[],
  method: string,
  path: readonly string[],
): EndpointMatch<Route> {
  const wanted = method.toUpperCase() === "HEAD" ? "GET" : method.toUpperCase();
  let best: { route: Route; params: Record<string, string> } | null = null;
  const allow = new Set<EndpointMethod>();
  for (const route of routes) {
    const params = capture(route, path);
    if (!params) continue;
    if (route.method !== wanted) {
      allow.add(route.method);
      continue;
    }
    if (!best || comparePrecedence(route, best.route) < 0) best = { route, params };
  }
  if (best) return { kind: "match", ...best };
  if (allow.size > 0)
    return {
      kind: "method_not_allowed",
      allow: ENDPOINT_METHODS.filter((candidate) => allow.has(candidate)),
    };
  return { kind: "not_found" };
}
