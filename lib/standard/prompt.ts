// PromptDefinition and its parts (spec 0.1.0 Prompts §1–§2), in the stored JSON form the user wrote.
import { z } from "zod";
import { JsonSchemaObjectSchema } from "./json-schema";
import { PromptToolEntrySchema } from "./tool-entry";

const nonEmptyString = z.string().min(1);

export const PromptTextPartSchema = z.object({ type: z.literal("text"), content: z.string() });
/** Inlines another prompt's content, by prompt name. */
export const PromptIncludePartSchema = z.object({ type: z.literal("include"), prompt: nonEmptyString });
/** Replaced at render time by the value of an env variable (empty when unset). */
export const PromptEnvPartSchema = z.object({ type: z.literal("env"), property: nonEmptyString });

export const PromptPartSchema = z.discriminatedUnion(
  "type",
  [PromptTextPartSchema, PromptIncludePartSchema, PromptEnvPartSchema],
  {
    error: 'A prompt part\'s "type" must be "text", "include" or "env".',
  },
);
export type PromptPart = z.infer<typeof PromptPartSchema>;

export const PromptContentSchema = z.union([z.string(), z.array(PromptPartSchema)]);
export type PromptContent = z.infer<typeof PromptContentSchema>;

export const ReasoningConfigSchema = z.object({
  effort: z.enum(["low", "medium", "high"]).optional(),
  maxTokens: z.int().positive().optional(),
  /** Replay stored reasoning of this prompt's past assistant messages. */
  include: z.boolean().optional(),
  /** Ask the provider to reason without returning the reasoning text. */
  exclude: z.boolean().optional(),
});
export type ReasoningConfig = z.infer<typeof ReasoningConfigSchema>;

/** The spec leaves VariableDefinition open; this is Tandem's contract (API.md). */
export const VariableDefinitionSchema = z.object({
  name: nonEmptyString,
  description: z.string().optional(),
  required: z.boolean().optional(),
  /** `secret` values are redacted in logs and tool output; `text` values may be shown. */
  type: z.enum(["text", "secret"]).optional(),
});
export type VariableDefinition = z.infer<typeof VariableDefinitionSchema>;

export const ToolChoiceSchema = z.enum(["auto", "none", "required"]);
export type ToolChoice = z.infer<typeof ToolChoiceSchema>;

export const PromptDefinitionSchema = z.object({
  name: nonEmptyString,
  toolDescription: nonEmptyString,
  prompt: PromptContentSchema,
  /** Name of a model definition in the bundle (not a provider model id). */
  model: nonEmptyString,
  includeChat: z.boolean().optional(),
  includePastTools: z.boolean().optional(),
  parallelToolCalls: z.boolean().optional(),
  toolChoice: ToolChoiceSchema.optional(),
  requiredSchema: JsonSchemaObjectSchema.optional(),
  tools: z.array(PromptToolEntrySchema).optional(),
  variables: z.array(VariableDefinitionSchema).optional(),
  env: z.record(z.string(), z.string()).optional(),
  reasoning: ReasoningConfigSchema.optional(),
  recentImageThreshold: z.int().nonnegative().optional(),
  hooks: z.array(z.string()).optional(),
  exposeAsTool: z.boolean().optional().meta({
    deprecated: true,
    description: "Every prompt can be called as a tool now, so it has no effect. Remove it.",
  }),
});
export type PromptDefinition = z.infer<typeof PromptDefinitionSchema>;
export type PromptDefinitionInput = z.input<typeof PromptDefinitionSchema>;

/** Names of the prompts this prompt includes, in order, with the index of the including part. */
export function promptIncludes(prompt: PromptDefinition): Array<{ partIndex: number; target: string }> {
  if (typeof prompt.prompt === "string") return [];
  return prompt.prompt.flatMap((part, partIndex) =>
    part.type === "include" ? [{ partIndex, target: part.prompt }] : [],
  );
}
