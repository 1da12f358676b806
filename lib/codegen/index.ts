// Definitions as code: bundle ⇄ TypeScript (one module or a project's files) ⇄ zip, read by parsing, never by running.

export {
  EVALS_FOLDER,
  type EvalSuiteData,
  evalSuitesToProjectFiles,
  projectFilesToEvalSuites,
  type ReadEvalSuitesResult,
} from "./eval-files";
export {
  isPlaceholderText,
  PROMPT_TOOL_DESCRIPTION_HINT,
  TOOL_DESCRIPTION_HINT,
  withoutPlaceholders,
} from "./placeholders";
export {
  bundleToProjectFiles,
  PROJECT_INDEX_FILE,
  packageNameFor,
  projectFilesToBundle,
  withoutCommonRoot,
} from "./project-files";
export { type ReadBundleResult, typeScriptToBundle } from "./read-typescript";
export {
  SOURCE_DIAGNOSTIC_CODES,
  type SourceDiagnostic,
  type SourceDiagnosticCode,
  SourceDiagnosticSchema,
} from "./source-diagnostics";
export { bundleToTypeScript, SPEC_PACKAGE } from "./write-typescript";
export {
  InvalidZipError,
  MAX_UNZIPPED_BYTES,
  type ProjectFiles,
  unzipProjectFiles,
  zipProjectFiles,
} from "./zip";
