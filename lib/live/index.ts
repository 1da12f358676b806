// The live view of one root thread's event stream: wire schemas, the pure reducer and its selectors
// (isomorphic: the browser's SSE hook and the tests use the same code). See docs/live.md.
export { applyApproval, selectPendingApprovals } from "./apply-approval";
export * from "./events";
export type { PersistentMap } from "./persistent-map";
export { getEntry, mapEntries, mapValues } from "./persistent-map";
export * from "./reducer";
export * from "./selectors";
export * from "./sse-stream";
export * from "./state";
export * from "./status-detail";
export * from "./timeline";
