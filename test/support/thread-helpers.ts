// Helpers for integration tests that drive threads through the HTTP API of one test server.
import { expect } from "vitest";
import type { ServerFixture } from "./fixture";

export type ApiMessage = {
  id: string;
  seq: number;
  role: string;
  side: string | null;
  content: string | null;
  name: string | null;
  tool_calls: string | null;
  tool_call_id: string | null;
  tool_status: string | null;
  silent: boolean;
  metadata: Record<string, unknown>;
  attachments: { path: string; name: string; mimeType: string; size: number }[];
  created_at: number;
};

export type ApiThread = {
  id: string;
  status: string;
  result: string | null;
  failure: string | null;
  stop_reason: string | null;
  status_text: string | null;
  terminated: number | null;
  usage: { input_tokens: number; output_tokens: number; cost_usd: number };
};

export function threadHelpers(fixture: ServerFixture) {
  const api = fixture.api;
  return {
    async projectWith(definitions: unknown): Promise<string> {
      const created = await api<{ id: string }>("POST", "/api/projects", {
        name: `p${Date.now()}${Math.random()}`,
        definitions,
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return created.body.id;
    },
    async startThread(projectId: string, agent: string, message?: string, env?: Record<string, string>) {
      const created = await api<{ threadId: string; agent_id: string }>("POST", "/api/threads", {
        project_id: projectId,
        agent_id: agent,
        ...(message !== undefined ? { message } : {}),
        ...(env ? { env } : {}),
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body.agent_id).toBe(agent);
      return created.body.threadId;
    },
    async waitFor(threadId: string, statuses: string[], timeoutMs = 20_000): Promise<ApiThread> {
      const deadline = Date.now() + timeoutMs;
      let last: ApiThread | undefined;
      while (Date.now() < deadline) {
        last = (await api<{ thread: ApiThread }>("GET", `/api/threads/${threadId}`)).body.thread;
        if (statuses.includes(last.status)) return last;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(
        `thread ${threadId} did not reach ${statuses.join("/")}; last: ${JSON.stringify(last)}`,
      );
    },
    async messagesOf(threadId: string, includeSilent = false): Promise<ApiMessage[]> {
      const response = await api<{ messages: ApiMessage[] }>(
        "GET",
        `/api/threads/${threadId}/messages${includeSilent ? "?includeSilent=true" : ""}`,
      );
      expect(response.status).toBe(200);
      return response.body.messages;
    },
    async modelRequests(threadId: string) {
      const logs = await api<{
        model_calls: {
          request: {
            messages: { role: string; content: unknown }[];
            tools: { name: string; inputSchema: unknown }[];
          };
        }[];
      }>("GET", `/api/threads/${threadId}/logs`);
      expect(logs.status).toBe(200);
      return logs.body.model_calls.map((call) => call.request);
    },
  };
}
