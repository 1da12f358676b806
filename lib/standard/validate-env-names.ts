// Every place a definition names an env variable must use a plausible variable name, or the lookup can never succeed.
import type { PathSegment } from "./diagnostics";
import { ENV_NAME_PATTERN } from "./identifiers";
import { type PromptToolEntry, toolEntryObject } from "./tool-entry";
import type { ValidationContext, ValidationRule } from "./validation-context";

function checkEnvName(context: ValidationContext, name: string, path: PathSegment[], role: string): void {
  // Only a string can be a name (RegExp#test would read undefined as the valid name "undefined").
  if (typeof name === "string" && ENV_NAME_PATTERN.test(name)) return;
  const suggestion = name.replaceAll(/[^A-Za-z0-9_]+/g, "_").replace(/^(?=\d)/, "_");
  context.report(
    "error",
    "invalid_env_name",
    path,
    `${role} "${name}" is not a valid environment variable name (letters, digits and "_", not starting with a digit). Use a name like "${suggestion || "MY_VARIABLE"}".`,
  );
}

function checkEnvRecordKeys(
  context: ValidationContext,
  env: Record<string, string> | undefined,
  path: PathSegment[],
): void {
  for (const key of Object.keys(env ?? {})) checkEnvName(context, key, [...path, key], "The env key");
}

function checkToolEntryEnvNames(
  context: ValidationContext,
  entry: PromptToolEntry,
  entryPath: PathSegment[],
): void {
  const config = toolEntryObject(entry);
  checkEnvRecordKeys(context, config.env, [...entryPath, "env"]);
  if (config.optional !== undefined) {
    checkEnvName(context, config.optional, [...entryPath, "optional"], "The optional flag");
  }
  const immediate = config.immediate;
  if (typeof immediate !== "object") return;
  const immediatePath: PathSegment[] = [...entryPath, "immediate"];
  if (immediate.nameEnv !== undefined) {
    checkEnvName(context, immediate.nameEnv, [...immediatePath, "nameEnv"], "immediate.nameEnv");
  }
  if (immediate.descriptionEnv !== undefined) {
    checkEnvName(
      context,
      immediate.descriptionEnv,
      [...immediatePath, "descriptionEnv"],
      "immediate.descriptionEnv",
    );
  }
  for (const [index, name] of (immediate.scopedEnv ?? []).entries()) {
    checkEnvName(context, name, [...immediatePath, "scopedEnv", index], "The scoped env variable");
  }
}

const agentAndPromptEnvNames: ValidationRule = (context) => {
  for (const [index, agent] of context.bundle.agents.entries()) {
    checkEnvRecordKeys(context, agent.env, ["agents", index, "env"]);
  }
  for (const [index, prompt] of context.bundle.prompts.entries()) {
    const base: PathSegment[] = ["prompts", index];
    checkEnvRecordKeys(context, prompt.env, [...base, "env"]);
    for (const [variableIndex, variable] of (prompt.variables ?? []).entries()) {
      checkEnvName(
        context,
        variable.name,
        [...base, "variables", variableIndex, "name"],
        "The variable name",
      );
    }
    if (Array.isArray(prompt.prompt)) {
      for (const [partIndex, part] of prompt.prompt.entries()) {
        if (part.type !== "env") continue;
        checkEnvName(
          context,
          part.property,
          [...base, "prompt", partIndex, "property"],
          "The env part's property",
        );
      }
    }
    for (const [entryIndex, entry] of (prompt.tools ?? []).entries()) {
      checkToolEntryEnvNames(context, entry, [...base, "tools", entryIndex]);
    }
  }
};

const modelAndToolEnvNames: ValidationRule = (context) => {
  context.bundle.models.forEach((model, index) => {
    if (model.apiKeyEnv !== undefined)
      checkEnvName(context, model.apiKeyEnv, ["models", index, "apiKeyEnv"], "apiKeyEnv");
  });
  context.bundle.tools.forEach((tool, index) => {
    if (tool.kind !== "http") return;
    for (const [header, value] of Object.entries(tool.headers ?? {})) {
      if (typeof value === "string") continue;
      checkEnvName(
        context,
        value.env,
        ["tools", index, "headers", header, "env"],
        `The env variable of header "${header}"`,
      );
    }
  });
};

export const ENV_NAME_RULES: readonly ValidationRule[] = [agentAndPromptEnvNames, modelAndToolEnvNames];
