import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  controlsFromSearchParams,
  controlsToSearchParams,
  DEFAULT_THREAD_LIST_CONTROLS,
  parseThreadListQuery,
  threadListRequestParams,
} from "./thread-list-query";

const parse = (query: string) => parseThreadListQuery(new URLSearchParams(query));

function issueOf(query: string): string {
  try {
    parse(query);
  } catch (error) {
    if (error instanceof z.ZodError) {
      const issue = error.issues[0]!;
      return `${issue.path.join(".")}: ${issue.message}`;
    }
    throw error;
  }
  throw new Error(`"${query}" was accepted`);
}

describe("parseThreadListQuery", () => {
  it("reads the API.md parameters as before: defaults, paging and roots_only spellings", () => {
    expect(parse("")).toEqual({ rootsOnly: false, statuses: [], limit: 50, offset: 0 });
    expect(parse("project_id=p&parent_id=t&limit=2&offset=4&roots_only=1")).toEqual({
      projectId: "p",
      parentId: "t",
      rootsOnly: true,
      statuses: [],
      limit: 2,
      offset: 4,
    });
    expect(parse("roots_only=true").rootsOnly).toBe(true);
    expect(parse("roots_only=0").rootsOnly).toBe(false);
    expect(parse("roots_only=").rootsOnly).toBe(false);
  });

  it("reads the filters: a status list (deduplicated), the agent and a trimmed search", () => {
    expect(parse("status=running,%20queued,running&agent_id=worker&q=%20asset%20")).toMatchObject({
      statuses: ["running", "queued"],
      agentId: "worker",
      search: "asset",
    });
    expect(parse("q=%20%20")).not.toHaveProperty("search");
  });

  it("refuses bad values with a message that names the parameter and the value", () => {
    expect(issueOf("status=running,sleeping")).toBe(
      'status: unknown status "sleeping"; use a comma-separated list of idle, queued, running, waiting_approval, completed, failed, stopped, terminated',
    );
    expect(issueOf("roots_only=maybe")).toBe('roots_only: must be true or false (got "maybe")');
    expect(issueOf("limit=0")).toBe("limit: must be an integer ≥ 1 ≤ 500");
    expect(issueOf("limit=501")).toBe("limit: must be an integer ≥ 1 ≤ 500");
    expect(issueOf("offset=-1")).toBe("offset: must be an integer ≥ 0");
    expect(issueOf("offset=1.5")).toBe("offset: must be an integer ≥ 0");
    expect(issueOf(`q=${"x".repeat(201)}`)).toBe("q: must be at most 200 characters");
  });
});

describe("the threads list's controls in the page URL", () => {
  it("round-trips through the URL and writes only what differs from the defaults", () => {
    const controls = {
      statuses: ["failed" as const, "stopped" as const],
      agentId: "lead",
      rootsOnly: false,
      search: "rock",
    };
    const params = controlsToSearchParams(controls);
    expect(params.toString()).toBe("status=failed%2Cstopped&agent_id=lead&roots_only=false&q=rock");
    expect(controlsFromSearchParams(params)).toEqual(controls);
    expect(controlsToSearchParams(DEFAULT_THREAD_LIST_CONTROLS).toString()).toBe("");
    expect(controlsFromSearchParams(new URLSearchParams())).toEqual(DEFAULT_THREAD_LIST_CONTROLS);
  });

  it("ignores what a stale or edited link gets wrong instead of breaking the page", () => {
    expect(controlsFromSearchParams(new URLSearchParams("status=running,bogus&roots_only=1"))).toEqual({
      ...DEFAULT_THREAD_LIST_CONTROLS,
      statuses: ["running"],
    });
  });

  it("asks the API for one project's page with roots_only always explicit", () => {
    const params = threadListRequestParams(
      "p1",
      { ...DEFAULT_THREAD_LIST_CONTROLS, search: "a" },
      { limit: 50, offset: 100 },
    );
    expect(parseThreadListQuery(params)).toEqual({
      projectId: "p1",
      rootsOnly: true,
      statuses: [],
      search: "a",
      limit: 50,
      offset: 100,
    });
    expect(
      threadListRequestParams(
        "p1",
        { ...DEFAULT_THREAD_LIST_CONTROLS, rootsOnly: false },
        { limit: 1, offset: 0 },
      ).get("roots_only"),
    ).toBe("false");
  });
});
