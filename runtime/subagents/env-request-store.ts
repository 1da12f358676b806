// Moved to runtime/store/env-request-store.ts (only runtime/store/ talks to the database). This
// re-export keeps the importers in services/ compiling until they import the store.
export * from "../store/env-request-store";
