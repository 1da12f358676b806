// Naming rules: unique names per kind, no clash between callables (tools, prompts, agents), reserved and well-formed names.

import { withArticle } from "../text/plural";
import { SESSION_BINDING_KEYS, sessionBindingToolName } from "./agent";
import type { PathSegment } from "./diagnostics";
import {
  CALLABLE_NAME_PATTERN,
  HOOK_ID_PATTERN,
  isReservedRuntimeToolName,
  MODEL_NAME_PATTERN,
} from "./identifiers";
import type { ValidationContext, ValidationRule } from "./validation-context";

type Collection = "agents" | "prompts" | "models" | "tools";
/** The kinds that are called by name (models are not). */
type CallableCollection = Exclude<Collection, "models">;

const SINGULAR: Record<CallableCollection, string> = {
  agents: "agent",
  prompts: "prompt",
  tools: "tool",
};

function checkDuplicateNames(context: ValidationContext, collection: Collection): void {
  const firstIndex = new Map<string, number>();
  context.bundle[collection].forEach((definition, index) => {
    const first = firstIndex.get(definition.name);
    if (first === undefined) {
      firstIndex.set(definition.name, index);
      return;
    }
    context.report(
      "error",
      "duplicate_name",
      [collection, index, "name"],
      `Two ${collection} are named "${definition.name}" (${collection}[${first}] and ${collection}[${index}]). Rename one: names must be unique.`,
    );
  });
}

const duplicateNames: ValidationRule = (context) => {
  for (const collection of ["agents", "prompts", "models", "tools"] as const)
    checkDuplicateNames(context, collection);
};

/** Tools, prompts and agents share one namespace: a prompt's tools entry names one of them. */
const callableNameConflicts: ValidationRule = (context) => {
  const owners = new Map<string, Array<{ collection: CallableCollection; index: number }>>();
  for (const collection of ["tools", "prompts", "agents"] as const) {
    const seen = new Set<string>();
    context.bundle[collection].forEach((definition, index) => {
      if (seen.has(definition.name)) return; // duplicates within one kind are reported by duplicateNames
      seen.add(definition.name);
      const list = owners.get(definition.name) ?? [];
      list.push({ collection, index });
      owners.set(definition.name, list);
    });
  }
  for (const [name, list] of owners) {
    if (list.length < 2) continue;
    for (const owner of list) {
      const others = list
        .filter((other) => other !== owner)
        .map((other) => withArticle(SINGULAR[other.collection]));
      context.report(
        "error",
        "callable_name_conflict",
        [owner.collection, owner.index, "name"],
        `The ${SINGULAR[owner.collection]} "${name}" has the same name as ${others.join(" and ")}. Tools, prompts and agents are all called by name, so rename one of them.`,
      );
    }
  }
};

const reservedNames: ValidationRule = (context) => {
  for (const collection of ["tools", "prompts", "agents"] as const) {
    context.bundle[collection].forEach((definition, index) => {
      if (!isReservedRuntimeToolName(definition.name)) return;
      context.report(
        "error",
        "reserved_name",
        [collection, index, "name"],
        `"${definition.name}" is a lifecycle tool the runtime provides for resumable subagents. Give this ${SINGULAR[collection]} another name.`,
      );
    });
  }
};

function checkCallableName(
  context: ValidationContext,
  name: string,
  path: PathSegment[],
  what: string,
): void {
  // Only a string can be a name (RegExp#test would read undefined as the valid name "undefined").
  if (typeof name === "string" && CALLABLE_NAME_PATTERN.test(name)) return;
  context.report(
    "error",
    "invalid_name",
    path,
    `${what} "${name}" is not a valid tool name: models can only call names of 1–64 letters, digits, "_" or "-". Try "${suggestCallableName(name)}".`,
  );
}

function suggestCallableName(name: string): string {
  // Whitespace at either end becomes "_" and is cut with the other underscores there.
  const cleaned = name
    .replaceAll(/[^A-Za-z0-9_-]+/g, "_")
    .replaceAll(/^_+|_+$/g, "")
    .slice(0, 64);
  return cleaned === "" ? "my_tool" : cleaned.toLowerCase();
}

function suggestHookId(hookId: string): string {
  const snake = hookId
    .replaceAll(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .replaceAll(/[^a-z0-9_]+/g, "_")
    .replace(/^[^a-z]+/, "")
    .replace(/_+$/, "");
  return snake === "" ? "my_hook" : snake;
}

const wellFormedNames: ValidationRule = (context) => {
  const { bundle } = context;
  for (const [index, tool] of bundle.tools.entries()) {
    checkCallableName(context, tool.name, ["tools", index, "name"], "Tool name");
  }
  for (const [index, prompt] of bundle.prompts.entries()) {
    checkCallableName(context, prompt.name, ["prompts", index, "name"], "Prompt name");
  }
  bundle.agents.forEach((agent, index) => {
    checkCallableName(context, agent.name, ["agents", index, "name"], "Agent name");
    for (const sideKey of ["sideA", "sideB"] as const) {
      const side = agent[sideKey];
      if (side === undefined) continue;
      for (const bindingKey of SESSION_BINDING_KEYS) {
        const binding = side[bindingKey];
        if (binding === undefined) continue;
        const path: PathSegment[] =
          typeof binding === "string"
            ? ["agents", index, sideKey, bindingKey]
            : ["agents", index, sideKey, bindingKey, "name"];
        checkCallableName(context, sessionBindingToolName(binding), path, `The ${bindingKey} tool name`);
      }
      if (side.stopTool !== undefined) {
        checkCallableName(
          context,
          side.stopTool,
          ["agents", index, sideKey, "stopTool"],
          "The stopTool name",
        );
      }
    }
  });
  bundle.models.forEach((model, index) => {
    if (MODEL_NAME_PATTERN.test(model.name)) return;
    context.report(
      "error",
      "invalid_name",
      ["models", index, "name"],
      `Model name "${model.name}" must be made of letters, digits, "_", "-" or "." (it becomes a file name on export). Rename it, e.g. "${suggestCallableName(model.name)}".`,
    );
  });
};

const hookIds: ValidationRule = (context) => {
  for (const collection of ["agents", "prompts"] as const) {
    context.bundle[collection].forEach((definition, index) => {
      definition.hooks?.forEach((hookId, hookIndex) => {
        if (HOOK_ID_PATTERN.test(hookId)) return;
        context.report(
          "error",
          "invalid_hook_id",
          [collection, index, "hooks", hookIndex],
          `Hook id "${hookId}" must be snake_case (lowercase letters, digits and "_", starting with a letter), e.g. "${suggestHookId(hookId)}".`,
        );
      });
    });
  }
};

export const NAME_RULES: readonly ValidationRule[] = [
  duplicateNames,
  callableNameConflicts,
  reservedNames,
  wellFormedNames,
  hookIds,
];
