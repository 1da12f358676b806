// Pins what the tools-entry, naming, env-name, agent and cycle rules say in the cases the first
// mutation run of lib-standard-validate found unpinned (docs/testing.md): which fields fit which
// target, the words for each kind of target, resumable subagents, suggestions for bad names, each
// env-name role, and which cycles a search reports. Each case is the whole diagnostic as a user reads it.
import { describe, expect, it } from "vitest";
import { asJson, assetBundle } from "../../test/support/spec-fixtures";
import type { Bundle } from "./bundle";
import { findCycles } from "./graph-cycles";
import { parseBundle } from "./parse-bundle";
import { validateBundle } from "./validate-bundle";

type Mutable = Bundle & Record<string, unknown>;

/** The example changed by `change`, parsed; its diagnostics as `severity code path: message` lines. */
function linesAfter(change: (bundle: Mutable) => void, example = assetBundle): string[] {
  const bundle = example() as Mutable;
  change(bundle);
  return parseBundle(asJson(bundle)).diagnostics.map(
    (diagnostic) => `${diagnostic.severity} ${diagnostic.code} ${diagnostic.path}: ${diagnostic.message}`,
  );
}

type Entry = NonNullable<Bundle["prompts"][number]["tools"]>[number];

/** The asset example whose orchestrator prompt lists only `entries`. */
const withEntries =
  (...entries: Record<string, unknown>[]) =>
  (bundle: Mutable) => {
    bundle.prompts[0]!.tools = entries as Entry[];
  };

describe("tools entry fields and targets", () => {
  it("accepts every field that means something for a tool, a prompt, a subagent and a handoff", () => {
    expect(
      linesAfter((bundle) => {
        bundle.agents[0]!.exposeAsTool = true;
        bundle.agents[0]!.toolDescription = "Direct the art.";
        bundle.prompts[3]!.requiredSchema = {
          type: "object",
          properties: { brief: { type: "string" }, files: { type: "array" } },
        };
        withEntries(
          { name: "read_file", env: { A: "1" }, tenvs: { b: 2 }, options: { c: 3 }, requiresApproval: true },
          {
            name: "asset_style_guide",
            initUserMessageProperty: "brief",
            initAttachmentsProperty: "files",
            includeTextResponse: true,
            includeToolCalls: true,
            includeErrors: true,
            env: { A: "1" },
            tenvs: { b: 2 },
            requiresApproval: true,
          },
          {
            name: "asset_subagent",
            initUserMessageProperty: "brief",
            initAttachmentsProperty: "references",
            initAgentNameProperty: "asset_name",
            requiresApproval: true,
          },
          {
            name: "orchestrator",
            initUserMessageProperty: "missing",
            initAttachmentsProperty: "missing_too",
            requiresApproval: true,
          },
        )(bundle);
      }),
    ).toMatchInlineSnapshot(`
      [
        "warning deprecated_property prompts[0].tools[0].tenvs: Prompt "orchestrator_chat" in "tools[0]": "tenvs" is deprecated. It was renamed "env" (string values). Move the values to "env".",
        "warning deprecated_property prompts[0].tools[1].tenvs: Prompt "orchestrator_chat" in "tools[1]": "tenvs" is deprecated. It was renamed "env" (string values). Move the values to "env".",
        "warning init_property_not_in_schema prompts[0].tools[3].initAttachmentsProperty: Prompt "orchestrator_chat" tools entry "orchestrator" maps initAttachmentsProperty from argument "missing_too", but prompt "orchestrator_chat" (side A of agent "orchestrator") declares no requiredSchema, so the calling model is never asked for "missing_too". Add a requiredSchema with a "missing_too" property.",
        "warning init_property_not_in_schema prompts[0].tools[3].initUserMessageProperty: Prompt "orchestrator_chat" tools entry "orchestrator" maps initUserMessageProperty from argument "missing", but prompt "orchestrator_chat" (side A of agent "orchestrator") declares no requiredSchema, so the calling model is never asked for "missing". Add a requiredSchema with a "missing" property.",
      ]
    `);
  });

  it("names each kind of target when a field has no effect on it, one field or several", () => {
    expect(
      linesAfter((bundle) => {
        bundle.agents[0]!.exposeAsTool = true;
        bundle.agents[0]!.toolDescription = "Direct the art.";
        withEntries(
          { name: "read_file", includeErrors: true },
          { name: "asset_style_guide", options: { a: 1 }, initAgentNameProperty: "x" },
          { name: "asset_subagent", options: { a: 1 }, env: { A: "1" } },
          { name: "orchestrator", env: { A: "1" }, blocking: true, initAgentNameProperty: "asset_name" },
        )(bundle);
      }),
    ).toMatchInlineSnapshot(`
      [
        "warning tool_entry_field_ignored prompts[0].tools[0].includeErrors: Prompt "orchestrator_chat" tools entry "read_file" sets "includeErrors", which has no effect because "read_file" is a tool. Remove it.",
        "error subagent_config_on_non_subagent prompts[0].tools[1].initAgentNameProperty: Prompt "orchestrator_chat" tools entry "asset_style_guide" sets subagent options "initAgentNameProperty", but "asset_style_guide" is a prompt (run as a sub-prompt). Only dual_ai agents run as subagents; remove them.",
        "warning tool_entry_field_ignored prompts[0].tools[1].options: Prompt "orchestrator_chat" tools entry "asset_style_guide" sets "options", which has no effect because "asset_style_guide" is a prompt (run as a sub-prompt). Remove it.",
        "warning tool_entry_field_ignored prompts[0].tools[2].env: Prompt "orchestrator_chat" tools entry "asset_subagent" sets "env" and "options", which have no effect because "asset_subagent" is a dual_ai agent (run as a subagent). Remove them.",
        "error subagent_config_on_non_subagent prompts[0].tools[3].blocking: Prompt "orchestrator_chat" tools entry "orchestrator" sets subagent options "blocking" and "initAgentNameProperty", but "orchestrator" is an ai_human agent (called as a handoff). Set "type": "dual_ai" on agent "orchestrator" to run it as a subagent, or remove them.",
        "warning tool_entry_field_ignored prompts[0].tools[3].env: Prompt "orchestrator_chat" tools entry "orchestrator" sets "env", which has no effect because "orchestrator" is an ai_human agent (called as a handoff). Remove it.",
      ]
    `);
  });

  it("names a session binding tool as the target a field has no effect on", () => {
    expect(
      only(
        linesAfter((bundle) => {
          bundle.prompts[2]!.tools = [
            "read_file",
            "list_files",
            { name: "approve_asset", env: { A: "1" } },
            "update_asset_status",
          ] as Entry[];
        }),
        "tool_entry_field_ignored",
      ),
    ).toMatchInlineSnapshot(`
      [
        "warning tool_entry_field_ignored prompts[2].tools[2].env: Prompt "asset_reviewer" tools entry "approve_asset" sets "env", which has no effect because "approve_asset" is a session binding tool of a side using this prompt. Remove it.",
      ]
    `);
  });

  it("a field written as undefined (a bundle built in code) is not a field the entry sets", () => {
    const bundle = assetBundle();
    bundle.prompts[0]!.tools = [
      { name: "read_file", includeErrors: undefined, blocking: undefined } as Entry,
    ];
    expect(validateBundle(bundle)).toEqual([]);
  });

  it("maps init properties only onto a schema that has them, saying what it has", () => {
    expect(
      linesAfter((bundle) => {
        bundle.prompts[1]!.requiredSchema = { type: "object", properties: {} };
        withEntries({ name: "asset_subagent", initUserMessageProperty: "brief" })(bundle);
      }),
    ).toMatchInlineSnapshot(`
      [
        "warning init_property_not_in_schema prompts[0].tools[0].initUserMessageProperty: Prompt "orchestrator_chat" tools entry "asset_subagent" maps initUserMessageProperty from argument "brief", but the requiredSchema of prompt "asset_worker" (side A of agent "asset_subagent") has no property "brief". Add it, or pick one it has.",
      ]
    `);
  });

  it("calls an agent that is not exposed a subagent or a handoff by its type", () => {
    expect(
      linesAfter((bundle) => {
        bundle.agents[1]!.exposeAsTool = false;
        withEntries({ name: "asset_subagent" }, { name: "orchestrator" })(bundle);
      }),
    ).toMatchInlineSnapshot(`
      [
        "error agent_not_exposed prompts[0].tools[0].name: Prompt "orchestrator_chat" calls agent "asset_subagent" as a subagent, but that agent is not exposed as a tool. Set "exposeAsTool": true on agent "asset_subagent" (and give it a toolDescription).",
        "error agent_not_exposed prompts[0].tools[1].name: Prompt "orchestrator_chat" calls agent "orchestrator" as a handoff, but that agent is not exposed as a tool. Set "exposeAsTool": true on agent "orchestrator" (and give it a toolDescription).",
      ]
    `);
  });
});

describe("resumable subagents", () => {
  /** The asset example, its subagent without side B, listed with `resumable`. */
  const resumable = (config: unknown) =>
    linesAfter((bundle) => {
      const { sideB: _sideB, ...agent } = bundle.agents[1]!;
      bundle.agents[1] = agent as Bundle["agents"][number];
      bundle.prompts[2]!.tools = ["read_file", "list_files"];
      withEntries({ name: "asset_subagent", resumable: config })(bundle);
    }).filter((line) => line.includes(" prompts[0].tools[0]"));

  it("needs a receiving side only when resumable, and side A is enough when it receives", () => {
    expect(resumable(false)).toEqual([]);
    expect(resumable({ receives_messages: "side_a", maxInstances: 1 })).toEqual([]);
  });

  it("reports a missing side B and a cap below one", () => {
    expect(resumable({ receives_messages: "side_b", maxInstances: 0 })).toMatchInlineSnapshot(`
      [
        "error invalid_max_instances prompts[0].tools[0].resumable.maxInstances: Prompt "orchestrator_chat" tools entry "asset_subagent" allows 0 resumable instances, so none could ever be created. Set maxInstances to 1 or more, or leave it out for no cap.",
        "error missing_receiving_side prompts[0].tools[0].resumable.receives_messages: Prompt "orchestrator_chat" tools entry "asset_subagent" sends parent messages to side_b, but agent "asset_subagent" has no sideB. Use "side_a", or add a sideB to the agent.",
      ]
    `);
  });
});

/** Only the lines of these diagnostic codes. */
const only = (lines: string[], ...codes: string[]) =>
  lines.filter((line) => codes.includes(line.split(" ")[1]!));

describe("names and their suggestions", () => {
  it("names the kind of each badly named callable and suggests a clean name", () => {
    expect(
      only(
        linesAfter((bundle) => {
          bundle.tools.push({
            name: "__my  tool__!!",
            kind: "builtin",
            builtin: "fs_list",
            description: "x",
          } as never);
          bundle.prompts.push({ ...bundle.prompts[3]!, name: "style guide 2" });
          bundle.agents.push({ ...bundle.agents[1]!, name: "Asset--Agent!" });
          bundle.agents[0]!.hooks = ["my--Hook__!", "AuditLog"];
        }),
        "invalid_name",
        "invalid_hook_id",
      ),
    ).toMatchInlineSnapshot(`
      [
        "error invalid_hook_id agents[0].hooks[0]: Hook id "my--Hook__!" must be snake_case (lowercase letters, digits and "_", starting with a letter), e.g. "my_hook".",
        "error invalid_hook_id agents[0].hooks[1]: Hook id "AuditLog" must be snake_case (lowercase letters, digits and "_", starting with a letter), e.g. "audit_log".",
        "error invalid_name agents[2].name: Agent name "Asset--Agent!" is not a valid tool name: models can only call names of 1–64 letters, digits, "_" or "-". Try "asset--agent".",
        "error invalid_name prompts[4].name: Prompt name "style guide 2" is not a valid tool name: models can only call names of 1–64 letters, digits, "_" or "-". Try "style_guide_2".",
        "error invalid_name tools[3].name: Tool name "__my  tool__!!" is not a valid tool name: models can only call names of 1–64 letters, digits, "_" or "-". Try "my_tool".",
      ]
    `);
  });
});

describe("env name roles", () => {
  it("names the role of each bad env name and suggests one", () => {
    expect(
      only(
        linesAfter((bundle) => {
          bundle.models[0]!.apiKeyEnv = "sk--proj 12";
          bundle.agents[0]!.env = { "": "x" };
          bundle.prompts[3]!.env = { "2FAST": "z" };
          bundle.prompts[3]!.variables = [{ name: "api token" }];
          bundle.prompts[3]!.prompt = [
            { type: "text", content: "Style." },
            { type: "env", property: "company.name" },
          ];
          withEntries(
            {
              name: "asset_subagent",
              optional: "enable-assets",
              immediate: {
                nameEnv: "asset name",
                descriptionEnv: "asset description",
                scopedEnv: ["bad-env"],
              },
              env: { "a b": "1" },
            },
            { name: "read_file", immediate: { nameEnv: "READ_NAME" } },
            { name: "list_files", immediate: { scopedEnv: ["LIST_SCOPE"] } },
            { name: "write_file", immediate: { descriptionEnv: "WRITE_DESCRIPTION" } },
          )(bundle);
          bundle.tools.push({
            name: "weather",
            description: "Weather.",
            kind: "http",
            method: "GET",
            url: "https://api.example.com/weather",
            headers: {
              Accept: "application/json",
              Authorization: { env: "weather token", prefix: "Bearer " },
            },
          } as never);
        }),
        "invalid_env_name",
      ),
    ).toMatchInlineSnapshot(`
      [
        "error invalid_env_name agents[0].env[""]: The env key "" is not a valid environment variable name (letters, digits and "_", not starting with a digit). Use a name like "MY_VARIABLE".",
        "error invalid_env_name models[0].apiKeyEnv: apiKeyEnv "sk--proj 12" is not a valid environment variable name (letters, digits and "_", not starting with a digit). Use a name like "sk_proj_12".",
        "error invalid_env_name prompts[0].tools[0].env["a b"]: The env key "a b" is not a valid environment variable name (letters, digits and "_", not starting with a digit). Use a name like "a_b".",
        "error invalid_env_name prompts[0].tools[0].immediate.descriptionEnv: immediate.descriptionEnv "asset description" is not a valid environment variable name (letters, digits and "_", not starting with a digit). Use a name like "asset_description".",
        "error invalid_env_name prompts[0].tools[0].immediate.nameEnv: immediate.nameEnv "asset name" is not a valid environment variable name (letters, digits and "_", not starting with a digit). Use a name like "asset_name".",
        "error invalid_env_name prompts[0].tools[0].immediate.scopedEnv[0]: The scoped env variable "bad-env" is not a valid environment variable name (letters, digits and "_", not starting with a digit). Use a name like "bad_env".",
        "error invalid_env_name prompts[0].tools[0].optional: The optional flag "enable-assets" is not a valid environment variable name (letters, digits and "_", not starting with a digit). Use a name like "enable_assets".",
        "error invalid_env_name prompts[3].env["2FAST"]: The env key "2FAST" is not a valid environment variable name (letters, digits and "_", not starting with a digit). Use a name like "_2FAST".",
        "error invalid_env_name prompts[3].prompt[1].property: The env part's property "company.name" is not a valid environment variable name (letters, digits and "_", not starting with a digit). Use a name like "company_name".",
        "error invalid_env_name prompts[3].variables[0].name: The variable name "api token" is not a valid environment variable name (letters, digits and "_", not starting with a digit). Use a name like "api_token".",
        "error invalid_env_name tools[3].headers.Authorization.env: The env variable of header "Authorization" "weather token" is not a valid environment variable name (letters, digits and "_", not starting with a digit). Use a name like "weather_token".",
      ]
    `);
  });
});

describe("how a side stops and what its bindings read", () => {
  /** The asset example's reviewing side (agents[1].sideB) changed by `change`; lines of `codes` only. */
  const reviewer = (change: (side: Record<string, unknown>, bundle: Mutable) => void, ...codes: string[]) =>
    only(
      linesAfter((bundle) => {
        const side = bundle.agents[1]!.sideB as unknown as Record<string, unknown>;
        delete side.sessionStop;
        delete side.sessionStatus;
        side.stopOnResponse = false;
        change(side, bundle);
      }),
      ...codes,
    );

  it("a side stops with only a stop tool, or only a session fail tool", () => {
    expect(reviewer(() => {}, "side_cannot_stop")).toHaveLength(1);
    expect(reviewer((side) => Object.assign(side, { stopTool: "read_file" }), "side_cannot_stop")).toEqual(
      [],
    );
    expect(reviewer((side) => Object.assign(side, { sessionFail: "give_up" }), "side_cannot_stop")).toEqual(
      [],
    );
  });

  it("a stopToolResponseProperty is used when there is a stop tool", () => {
    const code = "stop_tool_response_property_without_stop_tool";
    expect(
      reviewer((side) => Object.assign(side, { stopToolResponseProperty: "result" }), code),
    ).toHaveLength(1);
    expect(
      reviewer(
        (side) => Object.assign(side, { stopTool: "read_file", stopToolResponseProperty: "result" }),
        code,
      ),
    ).toEqual([]);
  });

  it("lists the arguments a binding could read instead", () => {
    expect(
      reviewer((side, bundle) => {
        bundle.tools.push({
          name: "report_done",
          description: "Done.",
          kind: "http",
          method: "POST",
          url: "https://api.example.com/done",
          args: { type: "object", properties: { summary: { type: "string" }, notes: { type: "string" } } },
        } as never);
        side.sessionStop = { name: "report_done", messageProperty: "result" };
      }, "binding_property_not_in_tool_args"),
    ).toMatchInlineSnapshot(`
      [
        "error binding_property_not_in_tool_args agents[1].sideB.sessionStop.messageProperty: Agent "asset_subagent" side B ("Reviewer") sessionStop reads argument "result" of tool "report_done", but that tool's args do not define "result". Set messageProperty to one of: summary, notes, or add "result" to the tool's args.",
      ]
    `);
  });

  it("a binding to a tool without arguments: no default to miss, and a property it cannot read", () => {
    const noArgs = (bundle: Mutable) =>
      bundle.tools.push({
        name: "report_done",
        description: "Done.",
        kind: "http",
        method: "POST",
        url: "https://api.example.com/done",
        args: { type: "object", properties: {} },
      } as never);
    const codes = ["binding_default_property_missing", "binding_property_not_in_tool_args"];
    expect(
      reviewer(
        (side, bundle) => {
          noArgs(bundle);
          side.sessionStop = "report_done";
        },
        ...codes,
      ),
    ).toEqual([]);
    expect(
      reviewer(
        (side, bundle) => {
          noArgs(bundle);
          side.sessionStop = { name: "report_done", messageProperty: "summary" };
        },
        ...codes,
      ),
    ).toMatchInlineSnapshot(`
      [
        "error binding_property_not_in_tool_args agents[1].sideB.sessionStop.messageProperty: Agent "asset_subagent" side B ("Reviewer") sessionStop reads argument "summary" of tool "report_done", but that tool's args do not define "summary". Set messageProperty to an argument it declares (it declares none), or add "summary" to the tool's args.",
      ]
    `);
  });
});

describe("which cycles are reported", () => {
  const graph = (edges: Record<string, string[]>) => new Map(Object.entries(edges));

  it("reports the cycles the search meets from each name in sorted order, not every cycle", () => {
    // a → c → b → a is a cycle too, but b is finished when the search reaches it from c.
    expect(findCycles(graph({ a: ["b", "c"], b: ["a"], c: ["b"] }))).toEqual([["a", "b"]]);
    expect(findCycles(graph({ c: ["b"], b: ["a"], a: ["b", "c"] }))).toEqual([["a", "b"]]);
  });

  it("keeps two cycles apart whose names run together the same way", () => {
    expect(findCycles(graph({ a: ["bc"], bc: ["a"], ab: ["c"], c: ["ab"] }))).toEqual([
      ["a", "bc"],
      ["ab", "c"],
    ]);
  });
});

describe("prompt and tool schema rules", () => {
  it("points a prompt include cycle at the include that closes it", () => {
    expect(
      only(
        linesAfter((bundle) => {
          bundle.prompts.push(
            { ...bundle.prompts[3]!, name: "loop_a" },
            { ...bundle.prompts[3]!, name: "loop_b" },
          );
          bundle.prompts[4]!.prompt = [
            { type: "include", prompt: "asset_style_guide" },
            { type: "include", prompt: "loop_b" },
          ];
          bundle.prompts[5]!.prompt = [{ type: "include", prompt: "loop_a" }];
        }),
        "include_cycle",
      ),
    ).toMatchInlineSnapshot(`
      [
        "error include_cycle prompts[4].prompt[1].prompt: Prompt includes form a cycle: loop_a → loop_b → loop_a. Rendering it would never end; remove one of these includes.",
      ]
    `);
  });

  it("says none are defined when a required property is required of an empty schema", () => {
    expect(
      only(
        linesAfter((bundle) => {
          bundle.prompts[3]!.requiredSchema = { type: "object", properties: {}, required: ["style"] };
          bundle.tools.push({
            name: "report_done",
            description: "Done.",
            kind: "http",
            method: "POST",
            url: "https://api.example.com/done",
            args: { type: "object", properties: {}, required: ["summary"] },
          } as never);
        }),
        "required_property_not_defined",
      ),
    ).toMatchInlineSnapshot(`
      [
        "warning required_property_not_defined prompts[3].requiredSchema.required[0]: Prompt "asset_style_guide"'s requiredSchema requires "style" but does not define it under "properties". Add the property or fix the name (defined: none).",
        "warning required_property_not_defined tools[3].args.required[0]: Tool "report_done" args require "summary" but do not define it under "properties". Add the property or fix the name (defined: none).",
      ]
    `);
  });

  it("lists the properties a schema does define when a required one is missing", () => {
    const properties = { style: { type: "string" }, size: { type: "number" } };
    expect(
      only(
        linesAfter((bundle) => {
          bundle.prompts[3]!.requiredSchema = { type: "object", properties, required: ["palette"] };
          bundle.tools.push({
            name: "report_done",
            description: "Done.",
            kind: "http",
            method: "POST",
            url: "https://api.example.com/done",
            args: { type: "object", properties, required: ["palette"] },
          } as never);
        }),
        "required_property_not_defined",
      ),
    ).toMatchInlineSnapshot(`
      [
        "warning required_property_not_defined prompts[3].requiredSchema.required[0]: Prompt "asset_style_guide"'s requiredSchema requires "palette" but does not define it under "properties". Add the property or fix the name (defined: style, size).",
        "warning required_property_not_defined tools[3].args.required[0]: Tool "report_done" args require "palette" but do not define it under "properties". Add the property or fix the name (defined: style, size).",
      ]
    `);
  });

  it("fills every placeholder before reading the URL, even one whose name is not valid in a host", () => {
    expect(
      only(
        linesAfter((bundle) => {
          bundle.tools.push({
            name: "tenant_api",
            description: "Tenant API.",
            kind: "http",
            method: "GET",
            url: "https://{tenant id}.example.com/items",
            args: { type: "object", properties: { "tenant id": { type: "string" } } },
          } as never);
        }),
        "invalid_url",
        "unknown_url_placeholder",
      ),
    ).toEqual([]);
  });

  it("does not check the args of a builtin tool, which the runtime ignores", () => {
    expect(
      only(
        linesAfter((bundle) => {
          bundle.tools[0] = {
            ...bundle.tools[0]!,
            args: { type: "object", properties: { path: { type: "string" } }, required: ["file"] },
          } as never;
        }),
        "required_property_not_defined",
      ),
    ).toEqual([]);
  });

  it("accepts a placeholder anywhere in an http tool's URL, the host included", () => {
    expect(
      linesAfter((bundle) => {
        bundle.tools.push({
          name: "regional",
          description: "Regional API.",
          kind: "http",
          method: "GET",
          url: "https://{region}",
          args: { type: "object", properties: { region: { type: "string" } }, required: ["region"] },
        } as never);
        bundle.prompts[1]!.tools = ["write_file", "list_files", "regional"];
      }),
    ).toEqual([]);
  });
});
