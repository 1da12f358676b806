// Moved to runtime/store/registry-store.ts (only runtime/store/ talks to the database). This
// re-export keeps the importers in services/ and engine/ compiling until they import the store.
export * from "../store/registry-store";
