// Thread helpers for Playwright specs, over the API the browser's page is served by.
import { type APIRequestContext, expect } from "@playwright/test";

/** Waits until the thread is idle with exactly `messages` top-level messages. */
export async function waitIdle(
  request: APIRequestContext,
  threadId: string,
  messages: number,
): Promise<void> {
  await expect
    .poll(
      async () => {
        const thread = (await (await request.get(`/api/threads/${threadId}`)).json()) as {
          thread: { status: string };
        };
        const list = (await (await request.get(`/api/threads/${threadId}/messages`)).json()) as {
          messages: unknown[];
        };
        return `${thread.thread.status}:${list.messages.length}`;
      },
      { timeout: 20_000 },
    )
    .toBe(`idle:${messages}`);
}
