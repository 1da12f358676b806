// Rules for each entry of a prompt's `tools`: it resolves to something callable, and its config fits what it resolves to.
import type { AgentDefinition } from "./agent";
import { type ClassifiedToolEntry, classifyToolEntry, type ToolEntryKind } from "./bundle-index";
import { listNames, type PathSegment } from "./diagnostics";
import { isReservedRuntimeToolName } from "./identifiers";
import { schemaHasProperty, schemaPropertyNames } from "./json-schema";
import type { PromptDefinition } from "./prompt";
import { type PromptToolEntryObject, SUBAGENT_ONLY_FIELDS, toolEntryName } from "./tool-entry";
import { defineOrPick, type ValidationContext, type ValidationRule } from "./validation-context";

type EntryField = Exclude<keyof PromptToolEntryObject, "name">;

/** Which config fields mean something for each kind of target (beyond `name`). */
const APPLICABLE_FIELDS: Record<Exclude<ToolEntryKind, "unknown">, readonly EntryField[]> = {
  tool: ["env", "tenvs", "options", "requiresApproval"],
  prompt: [
    "initUserMessageProperty",
    "initAttachmentsProperty",
    "includeTextResponse",
    "includeToolCalls",
    "includeErrors",
    "env",
    "tenvs",
    "requiresApproval",
  ],
  subagent: [
    ...SUBAGENT_ONLY_FIELDS,
    "initUserMessageProperty",
    "initAttachmentsProperty",
    "requiresApproval",
  ],
  handoff: ["initUserMessageProperty", "initAttachmentsProperty", "requiresApproval"],
  session_binding: [],
};

const KIND_DESCRIPTIONS: Record<Exclude<ToolEntryKind, "unknown">, string> = {
  tool: "a tool",
  prompt: "a prompt (run as a sub-prompt)",
  subagent: "a dual_ai agent (run as a subagent)",
  handoff: "an ai_human agent (called as a handoff)",
  session_binding: "a session binding tool of a side using this prompt",
};

interface EntryLocation {
  prompt: PromptDefinition;
  /** Path of the entry itself: `prompts[0].tools[2]`. */
  entryPath: PathSegment[];
  /** Path of the entry's name: the entry for the string form, `….name` for the object form. */
  namePath: PathSegment[];
}

function writtenFields(config: PromptToolEntryObject): EntryField[] {
  return (Object.keys(config) as Array<keyof PromptToolEntryObject>).filter(
    (key): key is EntryField => key !== "name" && config[key] !== undefined,
  );
}

function allCallableNames(context: ValidationContext): string[] {
  return [...context.index.tools.keys(), ...context.index.prompts.keys(), ...context.index.agents.keys()];
}

/** An entry that resolved to something (checkEntry reports unknown ones and stops there). */
type ResolvedEntry = Exclude<ClassifiedToolEntry, { kind: "unknown" }>;

function checkFieldsFitTarget(
  context: ValidationContext,
  entry: ResolvedEntry,
  location: EntryLocation,
): void {
  const fields = writtenFields(entry.config);
  const label = `Prompt "${location.prompt.name}" tools entry "${entry.name}"`;
  if (entry.kind !== "subagent") {
    const subagentOnly = fields.filter((field) =>
      (SUBAGENT_ONLY_FIELDS as readonly string[]).includes(field),
    );
    if (subagentOnly.length > 0) {
      const fix =
        entry.kind === "handoff"
          ? `Set "type": "dual_ai" on agent "${entry.name}" to run it as a subagent, or remove them.`
          : "Only dual_ai agents run as subagents; remove them.";
      context.report(
        "error",
        "subagent_config_on_non_subagent",
        [...location.entryPath, subagentOnly[0]!],
        `${label} sets subagent options ${listNames(subagentOnly)}, but "${entry.name}" is ${KIND_DESCRIPTIONS[entry.kind]}. ${fix}`,
      );
    }
  }
  const applicable = APPLICABLE_FIELDS[entry.kind];
  const ignored = fields.filter(
    (field) => !applicable.includes(field) && !(SUBAGENT_ONLY_FIELDS as readonly string[]).includes(field),
  );
  if (ignored.length > 0) {
    context.report(
      "warning",
      "tool_entry_field_ignored",
      [...location.entryPath, ignored[0]!],
      `${label} sets ${listNames(ignored)}, which ${ignored.length === 1 ? "has" : "have"} no effect because "${entry.name}" is ${KIND_DESCRIPTIONS[entry.kind]}. Remove ${ignored.length === 1 ? "it" : "them"}.`,
    );
  }
}

/** The schema the model fills when calling the target: the prompt's, or the agent's side A prompt's. */
function targetInputSchema(context: ValidationContext, entry: ClassifiedToolEntry) {
  if (entry.kind === "prompt") return { owner: `prompt "${entry.prompt.name}"`, prompt: entry.prompt };
  if (entry.kind === "subagent" || entry.kind === "handoff") {
    const prompt = context.index.prompts.get(entry.agent.sideA.prompt)?.definition;
    if (prompt === undefined) return undefined;
    return { owner: `prompt "${prompt.name}" (side A of agent "${entry.agent.name}")`, prompt };
  }
  return undefined;
}

function checkInitProperties(
  context: ValidationContext,
  entry: ClassifiedToolEntry,
  location: EntryLocation,
): void {
  const target = targetInputSchema(context, entry);
  if (target === undefined) return;
  const schema = target.prompt.requiredSchema;
  const fields =
    entry.kind === "subagent"
      ? (["initUserMessageProperty", "initAttachmentsProperty", "initAgentNameProperty"] as const)
      : (["initUserMessageProperty", "initAttachmentsProperty"] as const);
  for (const field of fields) {
    const property = entry.config[field];
    if (property === undefined) continue;
    if (schemaHasProperty(schema, property)) continue;
    const declared = schemaPropertyNames(schema);
    const problem =
      schema === undefined
        ? `${target.owner} declares no requiredSchema, so the calling model is never asked for "${property}". Add a requiredSchema with a "${property}" property.`
        : `the requiredSchema of ${target.owner} has no property "${property}"${declared.length > 0 ? ` (it has: ${declared.join(", ")})` : ""}. Add it, or pick one it has.`;
    context.report(
      "warning",
      "init_property_not_in_schema",
      [...location.entryPath, field],
      `Prompt "${location.prompt.name}" tools entry "${entry.name}" maps ${field} from argument "${property}", but ${problem}`,
    );
  }
}

function checkSubagentConfig(
  context: ValidationContext,
  agent: AgentDefinition,
  entry: ClassifiedToolEntry,
  location: EntryLocation,
): void {
  const resumable = entry.config.resumable;
  if (resumable === undefined || resumable === false) return;
  const label = `Prompt "${location.prompt.name}" tools entry "${entry.name}"`;
  if (resumable.maxInstances !== undefined && resumable.maxInstances < 1) {
    context.report(
      "error",
      "invalid_max_instances",
      [...location.entryPath, "resumable", "maxInstances"],
      `${label} allows ${resumable.maxInstances} resumable instances, so none could ever be created. Set maxInstances to 1 or more, or leave it out for no cap.`,
    );
  }
  // Every agent has a side A, so only side B can be missing.
  if (resumable.receives_messages === "side_b" && agent.sideB === undefined) {
    context.report(
      "error",
      "missing_receiving_side",
      [...location.entryPath, "resumable", "receives_messages"],
      `${label} sends parent messages to side_b, but agent "${agent.name}" has no sideB. Use "side_a", or add a sideB to the agent.`,
    );
  }
}

function checkEntry(context: ValidationContext, entry: ClassifiedToolEntry, location: EntryLocation): void {
  const label = `Prompt "${location.prompt.name}"`;
  if (isReservedRuntimeToolName(entry.name)) {
    context.report(
      "error",
      "reserved_tool_reference",
      location.namePath,
      `${label} lists "${entry.name}", a lifecycle tool the runtime adds by itself to prompts with resumable subagents. Remove it from tools.`,
    );
    return;
  }
  if (entry.kind === "unknown") {
    context.report(
      "error",
      "unknown_tool_reference",
      location.namePath,
      `${label} lists tool "${entry.name}", which is not a tool, prompt or agent of this project. ${defineOrPick("a tool, prompt or agent", entry.name, allCallableNames(context))}`,
    );
    return;
  }
  if ((entry.kind === "subagent" || entry.kind === "handoff") && entry.agent.exposeAsTool !== true) {
    const role = entry.kind === "subagent" ? "a subagent" : "a handoff";
    context.report(
      "error",
      "agent_not_exposed",
      location.namePath,
      `${label} calls agent "${entry.name}" as ${role}, but that agent is not exposed as a tool. Set "exposeAsTool": true on agent "${entry.name}" (and give it a toolDescription).`,
    );
  }
  checkFieldsFitTarget(context, entry, location);
  checkInitProperties(context, entry, location);
  if (entry.kind === "subagent") checkSubagentConfig(context, entry.agent, entry, location);
}

const toolEntries: ValidationRule = (context) => {
  context.bundle.prompts.forEach((prompt, promptIndex) => {
    const seen = new Set<string>();
    prompt.tools?.forEach((rawEntry, entryIndex) => {
      const entryPath: PathSegment[] = ["prompts", promptIndex, "tools", entryIndex];
      const location: EntryLocation = {
        prompt,
        entryPath,
        namePath: typeof rawEntry === "string" ? entryPath : [...entryPath, "name"],
      };
      const name = toolEntryName(rawEntry);
      if (seen.has(name)) {
        context.report(
          "error",
          "duplicate_tool_entry",
          location.namePath,
          `Prompt "${prompt.name}" lists "${name}" more than once; models reject duplicate tool names. Keep one entry.`,
        );
        return;
      }
      seen.add(name);
      checkEntry(context, classifyToolEntry(rawEntry, context.index, prompt.name), location);
    });
  });
};

export const TOOL_ENTRY_RULES: readonly ValidationRule[] = [toolEntries];
