// Addresses with a malformed percent-encoding (`%ZZ`, a cut UTF-8 sequence), through the real
// production server: API routes answer 400 with the usual error body, pages the designed 404 page,
// never the 500 that Next's route matcher gives them on its own (Next.js #43303, #92527).
import { describe, expect, it } from "vitest";
import { testServerForFile } from "../support/fixture";
import { threadHelpers } from "../support/thread-helpers";

const fixture = testServerForFile();
const { projectWith } = threadHelpers(fixture);

const chat = {
  agents: [{ name: "assistant", sideA: { prompt: "chat" } }],
  prompts: [{ name: "chat", toolDescription: "c", prompt: "Hi.", model: "demo", includeChat: true }],
  models: [{ name: "demo", provider: "scripted", model: "s", script: [{ text: "ok" }] }],
  tools: [],
};

const BAD = ["%E0%A4%A", "%ZZ", "%", "%C0%80", "%ED%A0%80"];

async function send(method: string, path: string, body?: string) {
  const response = await fetch(`${fixture.server.baseUrl}${path}`, {
    method,
    redirect: "manual",
    ...(body !== undefined ? { body, headers: { "content-type": "application/json" } } : {}),
  });
  return {
    status: response.status,
    type: response.headers.get("content-type") ?? "",
    text: await response.text(),
  };
}

describe("malformed percent-encoding", () => {
  it("answers 400 with the error body on API routes, for every method and depth", async () => {
    const projectId = await projectWith(chat);
    const paths = BAD.flatMap((bad) => [
      `/api/projects/${bad}`,
      `/api/projects/${bad}/versions/1/diff`,
      `/api/projects/${projectId}/versions/${bad}`,
      `/api/threads/${bad}`,
      `/api/threads/${bad}/messages`,
      `/api/threads/00000000-0000-4000-8000-000000000000/fs/notes/${bad}.md`,
      `/api/threads/${bad}/variables/r1`,
      `/threads/${bad}/variables/r1`,
      `/api/${bad}`,
    ]);
    for (const path of paths) {
      for (const method of path.endsWith("/messages") ? ["GET", "POST"] : ["GET", "PUT", "DELETE"]) {
        const answer = await send(method, path, method === "GET" || method === "DELETE" ? undefined : "{}");
        expect([method, path, answer.status, answer.type]).toEqual([method, path, 400, "application/json"]);
        expect(JSON.parse(answer.text)).toEqual({
          code: "malformed_url",
          error: expect.stringContaining("malformed percent-encoding"),
        });
      }
    }
  });

  it("answers the designed 404 page for pages", async () => {
    for (const bad of BAD) {
      for (const path of [`/projects/${bad}`, `/projects/${bad}/studio`, `/threads/${bad}`, `/${bad}`]) {
        const answer = await send("GET", path);
        expect([path, answer.status, answer.type]).toEqual([path, 404, "text/html; charset=utf-8"]);
        expect(answer.text).toContain("Nothing at this address");
      }
    }
  });

  it("leaves well-formed escapes alone", async () => {
    const projectId = await projectWith(chat);
    expect((await send("GET", `/api/projects/${projectId}`)).status).toBe(200);
    const unknown = await send("GET", "/api/projects/caf%C3%A9%20%25ZZ");
    expect([unknown.status, JSON.parse(unknown.text).code]).toEqual([404, "project_not_found"]);
    const page = await send("GET", "/projects/caf%C3%A9");
    expect([page.status, page.text.includes("Nothing at this address")]).toEqual([404, true]);
    expect((await send("GET", `/projects/${projectId}`)).status).toBe(200);
  });
});
