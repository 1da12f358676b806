// Only runtime/store/ and lib/db/ talk to the database (issue 44): they alone import the SQL client's
// values and write SQL. SQL mostly flows through a `db`/`tx` object handed in as a parameter (typed by
// a type-only import of lib/db), so the import rule alone cannot see it: the second rule finds SQL
// text (a string that starts with a statement, or a clause only SQL has) in product code.
// STILL_ALLOWED lists the offenders while they move (none today: every product file outside the two
// homes is clean); an entry is removed as soon as its file moves, and the list never grows.

/** Folders whose files may use the database directly. */
export const DATABASE_HOMES = ["runtime/store/", "lib/db/"];

/** Value imports that hand out a database connection: the drivers, Prisma, and lib/db except config. */
export const SQL_CLIENT_PACKAGES = [
  "postgres",
  "pg",
  "@electric-sql/pglite",
  "@prisma/client",
  "@prisma/adapter-pg",
  "pglite-prisma-adapter",
];
/** Repository modules under a database home that are no SQL client (configuration, read from env). */
export const NOT_SQL_CLIENT = ["lib/db/config"];

/** Product folders checked for SQL (tests, benches and scripts set up databases on purpose). */
export const PRODUCT_FOLDERS = ["app/", "components/", "lib/", "runtime/"];

/**
 * Files still allowed to import the SQL client or write SQL while they move to runtime/store/: none
 * since the last four moved (issue 44). Kept so that a move under way can be listed here, and the
 * check fails once a listed file no longer needs its entry; never add a file that could move instead.
 */
export const STILL_ALLOWED = [];

/** A string that starts with an SQL statement (a verb and more: not the tag name "SELECT"), or an SQL-only clause. */
const SQL_TEXT =
  /["'`]\s*(?:SELECT|INSERT\s+INTO|UPDATE\s+\w+|DELETE\s+FROM|WITH\s+\w+\s+AS|NOTIFY|LISTEN|LOCK\s+TABLE|TRUNCATE)\s+[^"'`\s]|\b(?:INSERT\s+INTO|DELETE\s+FROM|ON\s+CONFLICT|FOR\s+UPDATE|SKIP\s+LOCKED|RETURNING\s+[\w*]|pg_notify|pg_advisory\w*)\b/;

/** True when `source` (comments stripped) carries SQL text. */
export function hasSqlText(source) {
  return SQL_TEXT.test(source);
}

/** True when `file` may talk to the database directly. */
export function isDatabaseHome(file) {
  return DATABASE_HOMES.some((home) => file.startsWith(home));
}

/** True when `file` is product code that the SQL rule applies to (not a test). */
export function isCheckedForSql(file) {
  return PRODUCT_FOLDERS.some((folder) => file.startsWith(folder)) && !/\.(test|spec)\.[cm]?tsx?$/.test(file);
}
