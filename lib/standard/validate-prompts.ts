// Prompt rules: the model exists and can call tools, includes resolve without cycles, variables and schemas are coherent.
import { describeCycle, findCycles } from "./graph-cycles";
import { type PromptDefinition, promptIncludes } from "./prompt";
import { defineOrPick, type ValidationRule } from "./validation-context";

const promptModels: ValidationRule = (context) => {
  context.bundle.prompts.forEach((prompt, index) => {
    const model = context.index.models.get(prompt.model)?.definition;
    if (model === undefined) {
      context.report(
        "error",
        "unknown_model",
        ["prompts", index, "model"],
        `Prompt "${prompt.name}" uses model "${prompt.model}" which is not defined. ${defineOrPick("a model", prompt.model, context.index.models.keys())}`,
      );
      return;
    }
    if (model.capabilities?.functionCalling === false && (prompt.tools?.length ?? 0) > 0) {
      context.report(
        "warning",
        "model_lacks_function_calling",
        ["prompts", index, "tools"],
        `Prompt "${prompt.name}" lists tools, but its model "${model.name}" declares functionCalling: false, so it cannot call them. Use a model that supports function calling, or remove the tools.`,
      );
    }
  });
};

const includeTargets: ValidationRule = (context) => {
  context.bundle.prompts.forEach((prompt, index) => {
    for (const { partIndex, target } of promptIncludes(prompt)) {
      if (context.index.prompts.has(target)) continue;
      context.report(
        "error",
        "unknown_include",
        ["prompts", index, "prompt", partIndex, "prompt"],
        `Prompt "${prompt.name}" includes prompt "${target}" which is not defined. ${defineOrPick("a prompt", target, context.index.prompts.keys())}`,
      );
    }
  });
};

const includeCycles: ValidationRule = (context) => {
  const edges = new Map<string, string[]>();
  for (const { definition } of context.index.prompts.values()) {
    edges.set(
      definition.name,
      promptIncludes(definition).map((include) => include.target),
    );
  }
  for (const cycle of findCycles(edges)) {
    const [first, second = first] = cycle as [string, ...string[]];
    const owner = context.index.prompts.get(first)!;
    const part = promptIncludes(owner.definition).find((include) => include.target === second)!;
    context.report(
      "error",
      "include_cycle",
      ["prompts", owner.index, "prompt", part.partIndex, "prompt"],
      `Prompt includes form a cycle: ${describeCycle(cycle)}. Rendering it would never end; remove one of these includes.`,
    );
  }
};

const promptVariables: ValidationRule = (context) => {
  context.bundle.prompts.forEach((prompt, index) => {
    const seen = new Set<string>();
    prompt.variables?.forEach((variable, variableIndex) => {
      if (seen.has(variable.name)) {
        context.report(
          "error",
          "duplicate_variable",
          ["prompts", index, "variables", variableIndex, "name"],
          `Prompt "${prompt.name}" declares variable "${variable.name}" twice. Keep one declaration.`,
        );
      }
      seen.add(variable.name);
    });
  });
};

/** JSON Schema `required` names with no matching property are almost always typos. */
const requiredSchemaCoherence: ValidationRule = (context) => {
  context.bundle.prompts.forEach((prompt: PromptDefinition, index) => {
    const schema = prompt.requiredSchema;
    if (schema?.properties === undefined) return;
    schema.required?.forEach((property, requiredIndex) => {
      if (Object.hasOwn(schema.properties ?? {}, property)) return;
      context.report(
        "warning",
        "required_property_not_defined",
        ["prompts", index, "requiredSchema", "required", requiredIndex],
        `Prompt "${prompt.name}"'s requiredSchema requires "${property}" but does not define it under "properties". Add the property or fix the name (defined: ${Object.keys(schema.properties ?? {}).join(", ") || "none"}).`,
      );
    });
  });
};

export const PROMPT_RULES: readonly ValidationRule[] = [
  promptModels,
  includeTargets,
  includeCycles,
  promptVariables,
  requiredSchemaCoherence,
];
