import { describe, expect, it } from "vitest";
import { type EndpointRoute, matchEndpoint, parseEndpointFile, routeShape } from "./thread-endpoint-routes";

function route(relative: string): EndpointRoute & { file: string } {
  const parsed = parseEndpointFile(relative);
  if ("problem" in parsed) throw new Error(`${relative}: ${parsed.problem}`);
  return { ...parsed, file: relative };
}

/** URL path → segments: "/" is none, "/a/" is ["a", ""]. */
const split = (path: string) => (path === "/" ? [] : path.slice(1).split("/"));

describe("parseEndpointFile", () => {
  it("maps the spec's file table to methods and paths", () => {
    const table = [
      ["foo.ts", "GET", "/foo"],
      ["bar.post.ts", "POST", "/bar"],
      ["index.ts", "GET", "/"],
      ["foobar/index.ts", "GET", "/foobar"],
      ["foobar/other.ts", "GET", "/foobar/other"],
      ["foobar/[id].ts", "GET", "/foobar/[id]"],
      ["foobar/[*].ts", "GET", "/foobar/[*]"],
    ];
    for (const [file, method, pattern] of table)
      expect(parseEndpointFile(file!), file).toMatchObject({ method, pattern });
  });

  it("reads every method suffix, case-insensitively, and only as the last name segment", () => {
    expect(parseEndpointFile("a.get.ts")).toMatchObject({ method: "GET", pattern: "/a" });
    expect(parseEndpointFile("a.PUT.mts")).toMatchObject({ method: "PUT", pattern: "/a" });
    expect(parseEndpointFile("a.Patch.js")).toMatchObject({ method: "PATCH", pattern: "/a" });
    expect(parseEndpointFile("a.delete.mjs")).toMatchObject({ method: "DELETE", pattern: "/a" });
    expect(parseEndpointFile("index.post.ts")).toMatchObject({ method: "POST", pattern: "/" });
    // Not a method: part of the name.
    expect(parseEndpointFile("report.v2.ts")).toMatchObject({ method: "GET", pattern: "/report.v2" });
    expect(parseEndpointFile("post.ts")).toMatchObject({ method: "GET", pattern: "/post" });
  });

  it("parses parameters in folders and file names", () => {
    expect(parseEndpointFile("orders/[orderId]/items/[itemId].patch.ts")).toEqual({
      method: "PATCH",
      pattern: "/orders/[orderId]/items/[itemId]",
      segments: [
        { kind: "static", value: "orders" },
        { kind: "param", name: "orderId" },
        { kind: "static", value: "items" },
        { kind: "param", name: "itemId" },
      ],
    });
  });

  it("refuses malformed parameters, a catch-all that is not last, and repeated names", () => {
    expect(parseEndpointFile("[*]/x.ts")).toEqual({ problem: expect.stringMatching(/catch-all .* last/) });
    expect(parseEndpointFile("[id]/[id].ts")).toEqual({
      problem: expect.stringMatching(/\[id\] appears twice/),
    });
    expect(parseEndpointFile("a/[b-c].ts")).toEqual({
      problem: expect.stringMatching(/not a valid segment/),
    });
    expect(parseEndpointFile("a/x[id].ts")).toEqual({
      problem: expect.stringMatching(/not a valid segment/),
    });
    expect(parseEndpointFile("a/[].ts")).toEqual({ problem: expect.stringMatching(/not a valid segment/) });
    expect(parseEndpointFile("a/[__proto__].ts")).toEqual({ problem: expect.stringMatching(/cannot name/) });
  });

  it("reads a leading dot as part of the name, and only the last module extension", () => {
    expect(parseEndpointFile(".post.ts")).toMatchObject({ method: "GET", pattern: "/.post" });
    expect(parseEndpointFile("a.cjs")).toMatchObject({ method: "GET", pattern: "/a" });
    expect(parseEndpointFile("data.jsonl.ts")).toMatchObject({ method: "GET", pattern: "/data.jsonl" });
  });

  it("refuses an empty segment and a bracket that does not make a parameter", () => {
    expect(parseEndpointFile("a//b.ts")).toEqual({ problem: "a path segment is empty" });
    expect(parseEndpointFile("a/[id]x.ts")).toEqual({
      problem:
        '"[id]x" is not a valid segment: write a parameter as [name] (letters, digits and _) or a catch-all as [*]',
    });
    expect(parseEndpointFile("a/[id.ts")).toEqual({
      problem: expect.stringMatching(/"\[id" is not a valid/),
    });
    expect(parseEndpointFile("a/id].ts")).toEqual({
      problem: expect.stringMatching(/"id\]" is not a valid/),
    });
    expect(parseEndpointFile("[*]/x.ts")).toEqual({
      problem: "a catch-all segment [*] must be the last part of the path (a file name)",
    });
    expect(parseEndpointFile("[a]/[a].ts")).toEqual({ problem: "the path parameter [a] appears twice" });
    expect(parseEndpointFile("[__proto__].ts")).toEqual({
      problem: "[__proto__] cannot name a path parameter",
    });
  });

  it("writes a route's shape from its method and segment kinds, with static values", () => {
    expect(routeShape(route("orders/[id]/[*].post.ts"))).toBe("POST /s:orders/[]/[*]");
    expect(routeShape(route("index.ts"))).toBe("GET /");
    expect(routeShape(route("a.ts"))).not.toBe(routeShape(route("b.ts")));
  });

  it("gives routes that answer the same requests the same shape, whatever their parameter names", () => {
    expect(routeShape(route("a/[x].ts"))).toBe(routeShape(route("a/[y].get.ts")));
    expect(routeShape(route("a.ts"))).toBe(routeShape(route("a/index.ts")));
    expect(routeShape(route("a.ts"))).not.toBe(routeShape(route("a.post.ts")));
    expect(routeShape(route("a/[x].ts"))).not.toBe(routeShape(route("a/[*].ts")));
  });
});

describe("matchEndpoint", () => {
  // Parsed inside each test, never while the tests are collected: a mutant of parseEndpointFile that
  // throws here would fail the file's import, which the mutation runner does not count as a failure.
  const routes = () => [
    route("index.ts"),
    route("status.ts"),
    route("archive.post.ts"),
    route("orders/[orderId].ts"),
    route("orders/[orderId].delete.ts"),
    route("orders/recent.ts"),
    route("orders/[orderId]/items/[itemId].ts"),
    route("files/[*].ts"),
    route("files/readme.ts"),
    route("[*].put.ts"),
  ];
  const match = (method: string, path: string) => matchEndpoint(routes(), method, split(path));
  const file = (method: string, path: string) => {
    const found = match(method, path);
    return found.kind === "match" ? [found.route.file, found.params] : found;
  };

  it("matches static paths, the root and method suffixes", () => {
    expect(file("GET", "/")).toEqual(["index.ts", {}]);
    expect(file("GET", "/status")).toEqual(["status.ts", {}]);
    expect(file("POST", "/archive")).toEqual(["archive.post.ts", {}]);
    expect(file("post", "/archive")).toEqual(["archive.post.ts", {}]);
  });

  it("captures parameters; static segments win over dynamic ones, dynamic over catch-alls", () => {
    expect(file("GET", "/orders/A-7")).toEqual(["orders/[orderId].ts", { orderId: "A-7" }]);
    expect(file("DELETE", "/orders/A-7")).toEqual(["orders/[orderId].delete.ts", { orderId: "A-7" }]);
    expect(file("GET", "/orders/recent")).toEqual(["orders/recent.ts", {}]);
    expect(file("GET", "/orders/A-7/items/3")).toEqual([
      "orders/[orderId]/items/[itemId].ts",
      { orderId: "A-7", itemId: "3" },
    ]);
    expect(file("GET", "/files/readme")).toEqual(["files/readme.ts", {}]);
    expect(file("GET", "/files/docs/a b/c.txt")).toEqual(["files/[*].ts", { "*": "docs/a b/c.txt" }]);
    // A catch-all captures zero segments too.
    expect(file("GET", "/files")).toEqual(["files/[*].ts", { "*": "" }]);
    expect(file("PUT", "/anything/at/all")).toEqual(["[*].put.ts", { "*": "anything/at/all" }]);
    // A parameter never captures an empty segment.
    expect(file("GET", "/orders/")).toEqual({ kind: "method_not_allowed", allow: ["PUT"] });
  });

  it("prefers an exact route to a catch-all that would match nothing", () => {
    const both = [route("docs/[*].ts"), route("docs/index.ts")];
    const found = matchEndpoint(both, "GET", ["docs"]);
    expect(found.kind === "match" && found.route.file).toBe("docs/index.ts");
    const reversed = matchEndpoint([...both].reverse(), "GET", ["docs"]);
    expect(reversed.kind === "match" && reversed.route.file).toBe("docs/index.ts");
  });

  it("prefers a route of the request's method over a more specific one of another method", () => {
    // orders/recent is GET only, yet DELETE /orders/recent is the dynamic DELETE route.
    expect(file("DELETE", "/orders/recent")).toEqual(["orders/[orderId].delete.ts", { orderId: "recent" }]);
  });

  it("answers 405 with every method the path has, and not found for paths nothing matches", () => {
    const withoutCatchAll = routes().filter((candidate) => candidate.file !== "[*].put.ts");
    expect(matchEndpoint(withoutCatchAll, "GET", ["archive"])).toEqual({
      kind: "method_not_allowed",
      allow: ["POST"],
    });
    expect(matchEndpoint(withoutCatchAll, "PATCH", ["orders", "A-7"])).toEqual({
      kind: "method_not_allowed",
      allow: ["GET", "DELETE"],
    });
    expect(matchEndpoint(withoutCatchAll, "GET", ["nothing", "here"])).toEqual({ kind: "not_found" });
    expect(matchEndpoint(withoutCatchAll, "GET", ["status", "extra"])).toEqual({ kind: "not_found" });
    expect(matchEndpoint([], "GET", [])).toEqual({ kind: "not_found" });
  });

  it("answers HEAD with the GET endpoint", () => {
    expect(file("HEAD", "/status")).toEqual(["status.ts", {}]);
  });

  it("does not depend on the order the routes were loaded in", () => {
    const reversed = [...routes()].reverse();
    for (const [method, path] of [
      ["GET", "/orders/recent"],
      ["GET", "/files/readme"],
      ["GET", "/files"],
      ["GET", "/orders/A-7"],
    ] as const) {
      const a = matchEndpoint(routes(), method, split(path));
      const b = matchEndpoint(reversed, method, split(path));
      expect(a.kind === "match" && b.kind === "match" && a.route.file === b.route.file, path).toBe(true);
    }
  });
});
