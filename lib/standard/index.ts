// The definition model of Standard Agents 0.1.0: schemas, types, parsing, validation and resolved (defaulted) forms.
export * from "./agent";
export * from "./bundle";
export * from "./bundle-index";
export * from "./defaults";
export * from "./diagnostics";
export * from "./examples";
export * from "./identifiers";
export * from "./json-schema";
export * from "./model";
export * from "./parse-bundle";
export * from "./prompt";
export * from "./resolve";
export * from "./secrets";
export * from "./tool";
export * from "./tool-entry";
export { findUnknownProperties } from "./unknown-properties";
export { BUNDLE_RULES, validateBundle } from "./validate-bundle";
export { diagnosticsFromZodError } from "./zod-issues";
