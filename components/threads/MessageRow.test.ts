// A transcript row as the browser receives it (React's server renderer): markdown for what people
// and models say, preformatted tool output, the handoff marker and attachment links.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { LiveMessage } from "@/lib/live";
import { agentInfoFromDefinitions } from "./agent-info";
import { agentLabel, MessageRow } from "./MessageRow";

const agents = agentInfoFromDefinitions({
  agents: [
    { name: "front_desk", sideA: { prompt: "p" } },
    { name: "billing", title: "Billing", sideA: { prompt: "p" } },
  ],
});

function message(fields: Partial<LiveMessage>): LiveMessage {
  return {
    id: "m1",
    seq: 1,
    role: "assistant",
    side: "a",
    content: null,
    name: null,
    tool_calls: null,
    tool_call_id: null,
    tool_status: null,
    parent_id: null,
    depth: 0,
    silent: false,
    metadata: {},
    subagent_id: null,
    attachments: [],
    created_at: 1,
    ...fields,
  };
}

const render = (fields: Partial<LiveMessage>) =>
  renderToStaticMarkup(
    createElement(MessageRow, { message: message(fields), threadId: "t-1", sideLabels: null, agents }),
  );

describe("MessageRow", () => {
  it("renders what an assistant or a user says as markdown", () => {
    expect(render({ content: "**Done**: see `out.txt`" })).toContain(
      "<p><strong>Done</strong>: see <code>out.txt</code></p>",
    );
    expect(render({ role: "user", content: "# Hi" })).toContain('<h3 class="chat-h1">Hi</h3>');
  });

  it("keeps tool results preformatted, markdown characters and all", () => {
    const html = render({ role: "tool", name: "grep", content: "**not bold**", tool_status: "success" });
    expect(html).toContain("<pre");
    expect(html).toContain("**not bold**");
    expect(html).not.toContain("<strong>");
  });

  it("marks a handoff with the new agent's title and name", () => {
    const html = render({
      role: "tool",
      name: "billing",
      content: "Handoff complete",
      tool_status: "success",
      metadata: { handoff: { agent: "billing" } },
    });
    expect(html).toContain('aria-label="Handoff"');
    expect(html).toContain('data-handoff-to="billing"');
    expect(html).toContain("Handed off to <span");
    expect(html).toContain(">Billing (billing)</span>");
    expect(agentLabel("front_desk", agents)).toBe("front_desk");
    expect(agentLabel("unknown", agents)).toBe("unknown");
  });

  it("links attachments for download and previews images", () => {
    const html = render({
      role: "user",
      content: "files",
      attachments: [
        { id: "a1", type: "file", path: "/uploads/notes (2).txt", name: "notes (2).txt", size: 2048 },
        { id: "a2", type: "file", path: "/uploads/p.png", name: "p.png", mimeType: "image/png", size: 68 },
      ],
    });
    expect(html).toContain('href="/api/threads/t-1/fs/uploads/notes%20(2).txt" download="notes (2).txt"');
    expect(html).toContain("2.0 KB");
    expect(html).toContain('<img src="/api/threads/t-1/fs/uploads/p.png" alt="p.png" loading="lazy"');
    expect(html.match(/<img/g)).toHaveLength(1);
  });
});
