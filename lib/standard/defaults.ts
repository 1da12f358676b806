// The spec 0.1.0 defaults in one place: stored definitions omit them, the resolve* functions apply them.

/**
 * Defaults applied by the `resolve*` functions. Sources: spec 0.1.0 Agents §1.2/§3, Prompts §1.2,
 * Subagents §4 (`blocking` default true; `parentCommunication` default implicit), SubpromptConfig
 * (`include*` default true), and Tandem's API contract for variables and synthesized bindings.
 */
export const DEFINITION_DEFAULTS = {
  agent: {
    type: "ai_human",
    exposeAsTool: false,
  },
  side: {
    stopOnResponse: true,
  },
  sessionBinding: {
    /**
     * Tandem choice: every binding resolves with `messageProperty: "message"` unless one is written,
     * the argument a synthesized binding tool offers (API.md). `attachmentsProperty` has no default:
     * without one, a binding carries no attachments.
     */
    messageProperty: "message",
  },
  prompt: {
    includeChat: false,
    includePastTools: false,
    parallelToolCalls: false,
    toolChoice: "auto",
    recentImageThreshold: 10,
  },
  subprompt: {
    includeTextResponse: true,
    includeToolCalls: true,
    includeErrors: true,
  },
  subagent: {
    blocking: true,
    immediate: false,
    resumable: false,
    parentCommunication: "implicit",
  },
  variable: {
    required: true,
    type: "secret",
  },
  /** Values of an `optional` branch's env variable that enable it (compared case-insensitively). */
  optionalBranchEnabledValues: ["true", "1", "yes"],
} as const;
