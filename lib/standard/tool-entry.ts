// Entries of a prompt's `tools` list: a callable name, or a config object whose meaning depends on what the name resolves to.
import { z } from "zod";
import { JsonObjectSchema } from "./json-schema";
import { rejectSecretKeys } from "./secrets";

const nonEmptyString = z.string().min(1);

/** Options when the entry names a prompt (a sub-prompt run as a nested operation). */
export const SubpromptConfigSchema = z.object({
  name: nonEmptyString,
  initUserMessageProperty: nonEmptyString.optional(),
  initAttachmentsProperty: nonEmptyString.optional(),
  includeTextResponse: z.boolean().optional(),
  includeToolCalls: z.boolean().optional(),
  includeErrors: z.boolean().optional(),
});
export type SubpromptConfig = z.infer<typeof SubpromptConfigSchema>;

/** Options when the entry names a function tool. */
export const PromptToolConfigSchema = z.object({
  name: nonEmptyString,
  /** Env values scoped to this tool's invocations. */
  env: z.record(z.string(), z.string()).optional(),
  tenvs: z.record(z.string(), z.json()).optional().meta({
    deprecated: true,
    description: 'It was renamed "env" (string values). Move the values to "env".',
  }),
  options: JsonObjectSchema.superRefine((options, context) =>
    rejectSecretKeys(options, context, "Put the secret in an env variable and pass its name instead."),
  ).optional(),
});
export type PromptToolConfig = z.infer<typeof PromptToolConfigSchema>;

export const ImmediateConfigSchema = z.object({
  /** Env variable whose value the runtime MAY show the model as the child's name. */
  nameEnv: nonEmptyString.optional(),
  /** Env variable whose value the runtime MAY show the model as the child's description. */
  descriptionEnv: nonEmptyString.optional(),
  /** Env variables handed to the child at runtime only, never shown to the model. */
  scopedEnv: z.array(nonEmptyString).optional(),
});
export type ImmediateConfig = z.infer<typeof ImmediateConfigSchema>;

export const ResumableConfigSchema = z.object({
  receives_messages: z.enum(["side_a", "side_b"]),
  /** Checked to be ≥ 1 by validateBundle (`invalid_max_instances`), so the message can name the subagent. */
  maxInstances: z.int().optional(),
  parentCommunication: z.enum(["implicit", "explicit"]).optional(),
});
export type ResumableConfig = z.infer<typeof ResumableConfigSchema>;

/** Options when the entry names a `dual_ai` agent (Subagents §4). */
export const SubagentToolConfigSchema = z.object({
  name: nonEmptyString,
  blocking: z.boolean().optional(),
  initUserMessageProperty: nonEmptyString.optional(),
  initAttachmentsProperty: nonEmptyString.optional(),
  initAgentNameProperty: nonEmptyString.optional(),
  immediate: z.union([z.boolean(), ImmediateConfigSchema]).optional(),
  /** Name of the env variable that enables this branch (`true`, `1` or `yes`). */
  optional: nonEmptyString.optional(),
  resumable: z.union([z.literal(false), ResumableConfigSchema]).optional(),
});
export type SubagentToolConfig = z.infer<typeof SubagentToolConfigSchema>;

/** Options when the entry names an `ai_human` agent: the handoff's first user message is built from these. */
export const HandoffConfigSchema = z.object({
  name: nonEmptyString,
  initUserMessageProperty: nonEmptyString.optional(),
  initAttachmentsProperty: nonEmptyString.optional(),
});
export type HandoffConfig = z.infer<typeof HandoffConfigSchema>;

/**
 * The object form of a tools entry: the union of every config's fields. Which of them apply is only
 * known once the name is resolved (`classifyToolEntry`); fields that do not apply are diagnosed.
 */
export const PromptToolEntryObjectSchema = z.object({
  ...SubpromptConfigSchema.shape,
  ...PromptToolConfigSchema.shape,
  ...SubagentToolConfigSchema.shape,
  /**
   * Tandem's approvals (a Tandem extension to the spec): a model's call to this tool, sub-prompt,
   * subagent or handoff parks its thread (`waiting_approval`) until a human approves or denies it.
   */
  requiresApproval: z.boolean().optional(),
});
export type PromptToolEntryObject = z.infer<typeof PromptToolEntryObjectSchema>;

export const PromptToolEntrySchema = z.union([nonEmptyString, PromptToolEntryObjectSchema]);
export type PromptToolEntry = z.infer<typeof PromptToolEntrySchema>;

/** Fields that only make sense for a subagent; on any other target they are an error. */
export const SUBAGENT_ONLY_FIELDS = [
  "blocking",
  "resumable",
  "immediate",
  "optional",
  "initAgentNameProperty",
] as const satisfies ReadonlyArray<keyof SubagentToolConfig>;

export function toolEntryName(entry: PromptToolEntry): string {
  return typeof entry === "string" ? entry : entry.name;
}

/** Whether a model's call to this entry waits for a human's approval. */
export function toolEntryRequiresApproval(entry: PromptToolEntry): boolean {
  return typeof entry !== "string" && entry.requiresApproval === true;
}

/** The object form of any entry (`"search"` → `{ name: "search" }`). */
export function toolEntryObject(entry: PromptToolEntry): PromptToolEntryObject {
  return typeof entry === "string" ? { name: entry } : entry;
}
