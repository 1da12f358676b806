// Model rules: fallbacks name real models without loops, each provider has what it needs to connect.
import { describeCycle, findCycles } from "./graph-cycles";
import { defineOrPick, type ValidationRule } from "./validation-context";

const fallbacks: ValidationRule = (context) => {
  context.bundle.models.forEach((model, index) => {
    const seen = new Set<string>();
    model.fallbacks?.forEach((fallback, fallbackIndex) => {
      const path = ["models", index, "fallbacks", fallbackIndex];
      if (seen.has(fallback)) {
        context.report(
          "warning",
          "duplicate_fallback",
          path,
          `Model "${model.name}" lists fallback "${fallback}" twice; it would be tried twice. Remove the repeat.`,
        );
        return;
      }
      seen.add(fallback);
      if (fallback === model.name) {
        context.report(
          "warning",
          "fallback_self_reference",
          path,
          `Model "${model.name}" lists itself as a fallback, which only retries the model that just failed. Remove it or name another model.`,
        );
        return;
      }
      if (!context.index.models.has(fallback)) {
        const others = [...context.index.models.keys()].filter((name) => name !== model.name);
        context.report(
          "error",
          "unknown_fallback_model",
          path,
          `Model "${model.name}" falls back to model "${fallback}" which is not defined. ${defineOrPick("a model", fallback, others)}`,
        );
      }
    });
  });
};

/** A → B → A: harmless for a runtime that only walks the primary's list, but never what the author meant. */
const fallbackCycles: ValidationRule = (context) => {
  const edges = new Map<string, string[]>();
  for (const { definition } of context.index.models.values()) {
    edges.set(
      definition.name,
      (definition.fallbacks ?? []).filter((fallback) => fallback !== definition.name),
    );
  }
  for (const cycle of findCycles(edges)) {
    const [first, second] = cycle as [string, string, ...string[]];
    const owner = context.index.models.get(first)!;
    const fallbackIndex = owner.definition.fallbacks!.indexOf(second);
    context.report(
      "warning",
      "fallback_cycle",
      ["models", owner.index, "fallbacks", fallbackIndex],
      `Model fallbacks form a cycle: ${describeCycle(cycle)}. Fallbacks are tried in order from the failing model, so a cycle only retries models that already failed. Break the cycle.`,
    );
  }
};

const providerRequirements: ValidationRule = (context) => {
  context.bundle.models.forEach((model, index) => {
    if (model.provider === "openai-compatible" && model.baseURL === undefined) {
      context.report(
        "error",
        "missing_base_url",
        ["models", index, "baseURL"],
        `Model "${model.name}" uses the openai-compatible provider, which needs to know where the API is. Set "baseURL", e.g. "http://localhost:11434/v1".`,
      );
    }
    if (model.provider === "scripted" && model.script === undefined) {
      context.report(
        "error",
        "missing_script",
        ["models", index, "script"],
        `Model "${model.name}" uses the scripted provider but has no script. Add "script": [{ "text": "..." }] with one step per model call.`,
      );
    }
    if (
      model.scriptLoopFrom !== undefined &&
      model.script !== undefined &&
      model.scriptLoopFrom >= model.script.length
    ) {
      const last = model.script.length - 1;
      context.report(
        "error",
        "script_loop_out_of_range",
        ["models", index, "scriptLoopFrom"],
        model.script.length === 0
          ? `Model "${model.name}" loops its script from step ${model.scriptLoopFrom}, but the script is empty. Add steps to "script" or remove "scriptLoopFrom".`
          : `Model "${model.name}" loops its script from step ${model.scriptLoopFrom}, but the script's steps are numbered 0 to ${last}. Set "scriptLoopFrom" to a step between 0 and ${last}.`,
      );
    }
    if (model.provider !== "scripted" && model.scriptLoopFrom !== undefined) {
      context.report(
        "warning",
        "script_ignored",
        ["models", index, "scriptLoopFrom"],
        `Model "${model.name}" loops a script, but only the scripted provider plays scripts (this one uses "${model.provider}"). Remove "scriptLoopFrom" or set "provider": "scripted".`,
      );
    }
    if (model.provider !== "scripted" && model.script !== undefined) {
      context.report(
        "warning",
        "script_ignored",
        ["models", index, "script"],
        `Model "${model.name}" has a script, but only the scripted provider plays scripts (this one uses "${model.provider}"). Remove the script or set "provider": "scripted".`,
      );
    }
  });
};

export const MODEL_RULES: readonly ValidationRule[] = [fallbacks, fallbackCycles, providerRequirements];
