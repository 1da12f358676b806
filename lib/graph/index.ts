// The canvas document model and its pure transformations (no React, no database).
export * from "./card-geometry";
export * from "./compile";
export * from "./decompile";
export * from "./document";
export * from "./edges";
export * from "./elk-layout";
export * from "./fit-viewport";
export * from "./layout";
