// Paths whose percent-encoding decodeURIComponent rejects (`%ZZ`, `%E0%A4%A`, an overlong or
// surrogate UTF-8 sequence): the production server would answer them 500 from its route matcher
// (Next.js issues #43303, #92527), so next.config.mjs rewrites them to a clean 400 (API) or 404
// (pages) before any route is matched. Plain JavaScript because next.config.mjs imports it.

const HEX = "[0-9A-Fa-f]";
/** A UTF-8 continuation byte, 80–BF. */
const TAIL = `%[89ABab]${HEX}`;

/** Every escape sequence decodeURIComponent accepts: one ASCII byte or one well-formed UTF-8 character. */
const VALID_ESCAPE = [
  `%[0-7]${HEX}`,
  `%[Cc][2-9A-Fa-f]${TAIL}`,
  `%[Dd]${HEX}${TAIL}`,
  `%[Ee]0%[ABab]${HEX}${TAIL}`,
  `%[Ee][1-9A-Ca-cEeFf]${TAIL}${TAIL}`,
  `%[Ee][Dd]%[89]${HEX}${TAIL}`,
  `%[Ff]0%[9ABab]${HEX}${TAIL}${TAIL}`,
  `%[Ff][1-3]${TAIL}${TAIL}${TAIL}`,
  `%[Ff]4%8${HEX}${TAIL}${TAIL}`,
].join("|");

/**
 * A regular expression (source, no capturing groups, so path-to-regexp accepts it as a parameter
 * pattern) matching from its position to the end of any text with a malformed percent-encoding.
 */
export const MALFORMED_REST = `(?!(?:[^%]|${VALID_ESCAPE})*$).*`;

const MALFORMED = new RegExp(`^${MALFORMED_REST}$`);

/** True when decodeURIComponent would throw on `path` (checked without throwing). */
export function hasMalformedEncoding(path) {
  return MALFORMED.test(path);
}

/**
 * next.config.mjs rewrites (beforeFiles, so before the filesystem and dynamic routes): API paths
 * go to a route answering 400 with the usual error body, pages to a path no page has (the 404
 * page). Rewrites rather than proxy.ts: a proxy matching API paths would buffer their bodies.
 */
export const MALFORMED_PATH_REWRITES = [
  { source: `/api/:malformed(${MALFORMED_REST})`, destination: "/api/malformed-url" },
  // The spec's own API path outside /api (scoped variable bootstrap) answers like the API.
  {
    source: `/threads/:malformed((?=[^/]+/variables/[^/]+/?$)${MALFORMED_REST})`,
    destination: "/api/malformed-url",
  },
  { source: `/:malformed((?!api/)${MALFORMED_REST})`, destination: "/malformed-url" },
];
