// Agent rules: sides match the agent type, sides reference real prompts, stop and session bindings can actually fire.
import {
  type AgentDefinition,
  agentType,
  SESSION_BINDING_KEYS,
  type SessionToolBindingObject,
  type SideConfig,
  sessionBindingToolName,
  sideBindingToolNames,
} from "./agent";
import { DEFINITION_DEFAULTS } from "./defaults";
import type { PathSegment } from "./diagnostics";
import { schemaHasProperty, schemaPropertyNames } from "./json-schema";
import { toolEntryName } from "./tool-entry";
import { defineOrPick, type ValidationContext, type ValidationRule } from "./validation-context";

type SideKey = "sideA" | "sideB";

function sideLabel(sideKey: SideKey, side: SideConfig): string {
  const letter = sideKey === "sideA" ? "A" : "B";
  return side.label ? `side ${letter} ("${side.label}")` : `side ${letter}`;
}

function forEachSide(
  context: ValidationContext,
  visit: (agent: AgentDefinition, index: number, sideKey: SideKey, side: SideConfig) => void,
): void {
  context.bundle.agents.forEach((agent, index) => {
    visit(agent, index, "sideA", agent.sideA);
    if (agent.sideB !== undefined) visit(agent, index, "sideB", agent.sideB);
  });
}

const sidesMatchType: ValidationRule = (context) => {
  context.bundle.agents.forEach((agent, index) => {
    const type = agentType(agent);
    if (type === "dual_ai" && agent.sideB === undefined) {
      context.report(
        "error",
        "missing_side_b",
        ["agents", index, "sideB"],
        `Agent "${agent.name}" is dual_ai, so both sides are AI: add a sideB with the prompt the second AI uses.`,
      );
    }
    if (type === "ai_human" && agent.sideB !== undefined) {
      context.report(
        "error",
        "unexpected_side_b",
        ["agents", index, "sideB"],
        `Agent "${agent.name}" is ai_human, where side B is the human. Remove sideB, or set "type": "dual_ai" if both sides should be AI.`,
      );
    }
    if (type === "dual_ai" && agent.maxSessionTurns === undefined) {
      context.report(
        "warning",
        "missing_max_session_turns",
        ["agents", index, "maxSessionTurns"],
        `Agent "${agent.name}" is dual_ai without maxSessionTurns, so two AIs could talk forever. Set a cap, e.g. "maxSessionTurns": 20.`,
      );
    }
  });
};

const exposedAgents: ValidationRule = (context) => {
  context.bundle.agents.forEach((agent, index) => {
    if (agent.exposeAsTool !== true) return;
    if (!agent.toolDescription?.trim()) {
      context.report(
        "warning",
        "missing_tool_description",
        ["agents", index, "toolDescription"],
        `Agent "${agent.name}" is exposed as a tool but has no toolDescription, so models calling it do not know what it does. Describe what it does and when to call it.`,
      );
    }
    const hasSessionStop = agent.sideA.sessionStop !== undefined || agent.sideB?.sessionStop !== undefined;
    if (agentType(agent) === "dual_ai" && !hasSessionStop) {
      context.report(
        "warning",
        "subagent_without_session_stop",
        ["agents", index],
        `Subagent "${agent.name}" can never hand a result back to its parent: neither side has a session stop tool, the tool an AI calls to end the session with its answer, so it only ends at a limit. Pick a session stop tool for one side in the inspector (usually the reviewing side).`,
      );
    }
  });
};

const sidePrompts: ValidationRule = (context) => {
  forEachSide(context, (agent, index, sideKey, side) => {
    if (context.index.prompts.has(side.prompt)) return;
    context.report(
      "error",
      "unknown_prompt",
      ["agents", index, sideKey, "prompt"],
      `Agent "${agent.name}" ${sideLabel(sideKey, side)} uses prompt "${side.prompt}" which is not defined. ${defineOrPick("a prompt", side.prompt, context.index.prompts.keys())}`,
    );
  });
};

const sideStopping: ValidationRule = (context) => {
  forEachSide(context, (agent, index, sideKey, side) => {
    const base: PathSegment[] = ["agents", index, sideKey];
    const label = `Agent "${agent.name}" ${sideLabel(sideKey, side)}`;
    if (side.stopToolResponseProperty !== undefined && side.stopTool === undefined) {
      context.report(
        "warning",
        "stop_tool_response_property_without_stop_tool",
        [...base, "stopToolResponseProperty"],
        `${label} sets stopToolResponseProperty but no stopTool, so it is never used. Set stopTool or remove it.`,
      );
    }
    const stopsSomehow =
      (side.stopOnResponse ?? DEFINITION_DEFAULTS.side.stopOnResponse) ||
      side.stopTool !== undefined ||
      side.sessionStop !== undefined ||
      side.sessionFail !== undefined ||
      side.maxSteps !== undefined;
    if (!stopsSomehow) {
      context.report(
        "warning",
        "side_cannot_stop",
        [...base, "stopOnResponse"],
        `${label} has stopOnResponse false and no stopTool, sessionStop, sessionFail or maxSteps, so its turn only ends at the runtime's safety limit. Add a stopTool or a maxSteps.`,
      );
    }
    const stopTool = side.stopTool;
    if (stopTool === undefined) return;
    const prompt = context.index.prompts.get(side.prompt)?.definition;
    if (prompt === undefined) return; // reported by sidePrompts
    const callable = new Set([...(prompt.tools ?? []).map(toolEntryName), ...sideBindingToolNames(side)]);
    if (callable.has(stopTool)) return;
    context.report(
      "error",
      "stop_tool_not_callable",
      [...base, "stopTool"],
      `${label} stops when "${stopTool}" is called, but its prompt "${prompt.name}" cannot call it. Add "${stopTool}" to prompt "${prompt.name}"'s tools, or bind it as one of this side's session tools.`,
    );
  });
};

const sessionBindings: ValidationRule = (context) => {
  forEachSide(context, (agent, index, sideKey, side) => {
    const label = `Agent "${agent.name}" ${sideLabel(sideKey, side)}`;
    const usedBy = new Map<string, string>();
    for (const bindingKey of SESSION_BINDING_KEYS) {
      const binding = side[bindingKey];
      if (binding === undefined) continue;
      const toolName = sessionBindingToolName(binding);
      const bindingPath: PathSegment[] = ["agents", index, sideKey, bindingKey];
      const earlier = usedBy.get(toolName);
      if (earlier !== undefined) {
        context.report(
          "error",
          "conflicting_session_bindings",
          bindingPath,
          `${label} binds "${toolName}" as both ${earlier} and ${bindingKey}, so calling it would both end and continue the session. Use a separate tool for each.`,
        );
      }
      usedBy.set(toolName, bindingKey);

      const tool = context.index.tools.get(toolName)?.definition;
      // Undefined tools are synthesized from the binding; built-in tools have fixed, runtime-defined arguments.
      if (tool === undefined || tool.kind === "builtin") continue;
      const declared = schemaPropertyNames(tool.args);
      const declaredText =
        declared.length > 0 ? `one of: ${declared.join(", ")}` : "an argument it declares (it declares none)";
      const written: Partial<SessionToolBindingObject> = typeof binding === "string" ? {} : binding;
      for (const property of ["messageProperty", "attachmentsProperty"] as const) {
        const argument = written[property];
        if (argument === undefined || schemaHasProperty(tool.args, argument)) continue;
        context.report(
          "error",
          "binding_property_not_in_tool_args",
          [...bindingPath, property],
          `${label} ${bindingKey} reads argument "${argument}" of tool "${toolName}", but that tool's args do not define "${argument}". Set ${property} to ${declaredText}, or add "${argument}" to the tool's args.`,
        );
      }
      const defaultProperty = DEFINITION_DEFAULTS.sessionBinding.messageProperty;
      if (
        written.messageProperty === undefined &&
        declared.length > 0 &&
        !declared.includes(defaultProperty)
      ) {
        context.report(
          "warning",
          "binding_default_property_missing",
          bindingPath,
          `${label} ${bindingKey} reads the message from argument "${defaultProperty}" by default, but tool "${toolName}" has no such argument. Set messageProperty to ${declaredText}.`,
        );
      }
    }
  });
};

export const AGENT_RULES: readonly ValidationRule[] = [
  sidesMatchType,
  exposedAgents,
  sidePrompts,
  sideStopping,
  sessionBindings,
];
