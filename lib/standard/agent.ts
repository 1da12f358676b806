// AgentDefinition, SideConfig and SessionToolBinding (spec 0.1.0 Agents §1–§4), in the stored JSON form the user wrote.
import { z } from "zod";
import { DEFINITION_DEFAULTS } from "./defaults";

const nonEmptyString = z.string().min(1);

/** Spec §4: a lifecycle tool name, or the object form mapping which argument carries the message and attachments. */
export const SessionToolBindingObjectSchema = z.object({
  name: nonEmptyString,
  messageProperty: nonEmptyString.optional(),
  attachmentsProperty: nonEmptyString.optional(),
});
export const SessionToolBindingSchema = z.union([nonEmptyString, SessionToolBindingObjectSchema]);
export type SessionToolBinding = z.infer<typeof SessionToolBindingSchema>;
export type SessionToolBindingObject = z.infer<typeof SessionToolBindingObjectSchema>;

/** Deprecated binding names, normalised to the current ones by `SideConfigSchema`. */
export const SESSION_BINDING_ALIASES = {
  endSessionTool: "sessionStop",
  failSessionTool: "sessionFail",
  statusTool: "sessionStatus",
} as const;

export const SESSION_BINDING_KEYS = ["sessionStop", "sessionFail", "sessionStatus"] as const;
export type SessionBindingKey = (typeof SESSION_BINDING_KEYS)[number];

const deprecatedBinding = (replacement: SessionBindingKey) =>
  SessionToolBindingSchema.optional().meta({
    deprecated: true,
    description: `It is the old name of "${replacement}" and was read as "${replacement}". Rename it to "${replacement}".`,
  });

const SideConfigInputSchema = z.object({
  prompt: nonEmptyString,
  label: z.string().optional(),
  stopOnResponse: z.boolean().optional(),
  stopTool: nonEmptyString.optional(),
  stopToolResponseProperty: nonEmptyString.optional(),
  maxSteps: z.int().positive().optional(),
  sessionStop: SessionToolBindingSchema.optional(),
  sessionFail: SessionToolBindingSchema.optional(),
  sessionStatus: SessionToolBindingSchema.optional(),
  endSessionTool: deprecatedBinding("sessionStop"),
  failSessionTool: deprecatedBinding("sessionFail"),
  statusTool: deprecatedBinding("sessionStatus"),
});

/** Spec §3. Accepts the deprecated aliases and returns them under their current names. */
export const SideConfigSchema = SideConfigInputSchema.superRefine((side, context) => {
  for (const [alias, current] of Object.entries(SESSION_BINDING_ALIASES)) {
    if (side[alias as keyof typeof SESSION_BINDING_ALIASES] !== undefined && side[current] !== undefined) {
      context.addIssue({
        code: "custom",
        path: [alias],
        message: `"${current}" and its deprecated alias "${alias}" are both set. Keep only "${current}".`,
        params: { code: "conflicting_alias" },
      });
    }
  }
}).transform(({ endSessionTool, failSessionTool, statusTool, ...side }) => {
  const normalised = { ...side };
  if (endSessionTool !== undefined) normalised.sessionStop = endSessionTool;
  if (failSessionTool !== undefined) normalised.sessionFail = failSessionTool;
  if (statusTool !== undefined) normalised.sessionStatus = statusTool;
  return normalised;
});
export type SideConfig = z.infer<typeof SideConfigSchema>;
/** What a user may write, aliases included. */
export type SideConfigInput = z.input<typeof SideConfigSchema>;

export const AgentTypeSchema = z.enum(["ai_human", "dual_ai"]);
export type AgentType = z.infer<typeof AgentTypeSchema>;

/** Spec §1. Defaults (type `ai_human`, exposeAsTool false) are left out of the stored form; see `resolveAgent`. */
export const AgentDefinitionSchema = z.object({
  name: nonEmptyString,
  type: AgentTypeSchema.optional(),
  sideA: SideConfigSchema,
  sideB: SideConfigSchema.optional(),
  maxSessionTurns: z.int().positive().optional(),
  title: z.string().optional(),
  description: z.string().optional(),
  icon: z.string().optional(),
  exposeAsTool: z.boolean().optional(),
  toolDescription: z.string().optional(),
  env: z.record(z.string(), z.string()).optional(),
  hooks: z.array(z.string()).optional(),
  packageName: z.string().optional(),
  version: z.string().optional(),
  author: z.string().optional(),
  license: z.string().optional(),
});
export type AgentDefinition = z.infer<typeof AgentDefinitionSchema>;
export type AgentDefinitionInput = z.input<typeof AgentDefinitionSchema>;

/** The binding's tool name, whichever form it was written in. */
export function sessionBindingToolName(binding: SessionToolBinding): string {
  return typeof binding === "string" ? binding : binding.name;
}

/** Names of the lifecycle tools a side binds (sessionStop, sessionFail, sessionStatus), in that order. */
export function sideBindingToolNames(side: SideConfig): string[] {
  return SESSION_BINDING_KEYS.flatMap((key) => {
    const binding = side[key];
    return binding === undefined ? [] : [sessionBindingToolName(binding)];
  });
}

export function agentType(agent: AgentDefinition): AgentType {
  return agent.type ?? DEFINITION_DEFAULTS.agent.type;
}

/** The sides an agent defines, with the key they are stored under. Side B of an `ai_human` agent is the human. */
export function agentSides(agent: AgentDefinition): Array<{ key: "sideA" | "sideB"; side: SideConfig }> {
  const sides: Array<{ key: "sideA" | "sideB"; side: SideConfig }> = [{ key: "sideA", side: agent.sideA }];
  if (agent.sideB !== undefined) sides.push({ key: "sideB", side: agent.sideB });
  return sides;
}
