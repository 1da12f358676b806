// Every route handler of the app, found by walking app/**/route.ts: the URL (dynamic segments filled
// with placeholders) and the HTTP methods it exports. Tests use it to prove they cover every route.
import fs from "node:fs";
import path from "node:path";
import { ROOT } from "./server";

export const PLACEHOLDER_ID = "00000000-0000-4000-8000-000000000000";

export interface RouteFile {
  file: string;
  /** The directory path with its `[segments]`, e.g. `/api/threads/[id]/messages`. */
  pattern: string;
  /** The pattern with placeholders: ids become PLACEHOLDER_ID, `[version]` 1, `[...path]` notes.md. */
  urlPath: string;
  methods: string[];
}

const METHOD = /\b(GET|POST|PUT|PATCH|DELETE)\b/g;

export function routeFiles(directory = path.join(ROOT, "app")): RouteFile[] {
  const found: RouteFile[] = [];
  for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) {
      found.push(...routeFiles(full));
      continue;
    }
    if (entry.name !== "route.ts") continue;
    const source = fs.readFileSync(full, "utf8");
    const direct = [...source.matchAll(/export const (GET|POST|PUT|PATCH|DELETE)\b/g)].map(
      (match) => match[1],
    );
    const reexported = [...source.matchAll(/export \{([^}]*)\} from/g)].flatMap((match) =>
      [...(match[1] ?? "").matchAll(METHOD)].map((name) => name[1]),
    );
    const segments = path.relative(path.join(ROOT, "app"), path.dirname(full)).split(path.sep);
    const fill = (segment: string) =>
      segment.startsWith("[...")
        ? "notes.md"
        : segment === "[version]"
          ? "1"
          : segment.startsWith("[")
            ? PLACEHOLDER_ID
            : segment;
    found.push({
      file: path.relative(ROOT, full),
      pattern: `/${segments.join("/")}`,
      urlPath: `/${segments.map(fill).join("/")}`,
      methods: [...direct, ...reexported].filter((method): method is string => method !== undefined),
    });
  }
  return found;
}
