// validateBundle: every cross-reference rule over a parsed bundle, as one sorted list of diagnostics.
import type { Bundle } from "./bundle";
import { type Diagnostic, sortDiagnostics } from "./diagnostics";
import { AGENT_RULES } from "./validate-agents";
import { ENV_NAME_RULES } from "./validate-env-names";
import { MODEL_RULES } from "./validate-models";
import { NAME_RULES } from "./validate-names";
import { PROMPT_RULES } from "./validate-prompts";
import { TOOL_ENTRY_RULES } from "./validate-tool-entries";
import { TOOL_RULES } from "./validate-tools";
import { runValidationRules, type ValidationRule } from "./validation-context";

export const BUNDLE_RULES: readonly ValidationRule[] = [
  ...NAME_RULES,
  ...ENV_NAME_RULES,
  ...AGENT_RULES,
  ...PROMPT_RULES,
  ...TOOL_ENTRY_RULES,
  ...MODEL_RULES,
  ...TOOL_RULES,
];

/** Pure: the same bundle always yields the same diagnostics, in path order. Expects a parsed bundle (see parseBundle). */
export function validateBundle(bundle: Bundle): Diagnostic[] {
  return sortDiagnostics(runValidationRules(bundle, BUNDLE_RULES));
}
