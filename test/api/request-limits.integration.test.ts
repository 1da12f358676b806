// Request size limits and the thread filesystem's path rules, through the real server. The limits
// are set small here (TANDEM_MAX_JSON_BODY_BYTES, TANDEM_MAX_UPLOAD_BYTES) so the tests stream little.
import http from "node:http";
import net from "node:net";
import { describe, expect, it } from "vitest";
import { testServerForFile } from "../support/fixture";
import { threadHelpers } from "../support/thread-helpers";

const JSON_LIMIT = 64 * 1024;
const UPLOAD_LIMIT = 256 * 1024;
const fixture = testServerForFile({
  TANDEM_MAX_JSON_BODY_BYTES: String(JSON_LIMIT),
  TANDEM_MAX_UPLOAD_BYTES: String(UPLOAD_LIMIT),
});
const { projectWith, startThread } = threadHelpers(fixture);

const chat = {
  agents: [{ name: "assistant", sideA: { prompt: "chat" } }],
  prompts: [{ name: "chat", toolDescription: "c", prompt: "Hi.", model: "demo", includeChat: true }],
  models: [{ name: "demo", provider: "scripted", model: "s", script: [{ text: "ok" }] }],
  tools: [],
};

/**
 * Sends a request over a raw socket: the head, then `chunks()` until the server answers. Resolves
 * with the status and how many body bytes were sent before the answer came.
 */
async function rawRequest(
  port: number,
  head: string,
  chunks: () => Buffer | null,
): Promise<{ status: number; body: string; sent: number }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    let answer = "";
    let sent = 0;
    let answered = false;
    socket.setTimeout(20_000, () => {
      socket.destroy();
      reject(new Error(`no answer after sending ${sent} bytes`));
    });
    socket.on("data", (data) => {
      answer += data.toString("latin1");
      const end = answer.indexOf("\r\n\r\n");
      if (end === -1) return;
      answered = true;
      const length = Number(/content-length: (\d+)/i.exec(answer)?.[1] ?? "0");
      if (answer.length >= end + 4 + length) {
        socket.destroy();
        resolve({ status: Number(answer.slice(9, 12)), body: answer.slice(end + 4), sent });
      }
    });
    socket.on("error", (error) => {
      if (!answered) reject(error);
    });
    socket.write(head);
    const pump = () => {
      while (!answered && !socket.destroyed) {
        const chunk = chunks();
        if (!chunk) return;
        sent += chunk.length;
        if (!socket.write(chunk)) {
          socket.once("drain", pump);
          return;
        }
      }
    };
    pump();
  });
}

/** A request whose path is sent exactly as written (fetch would resolve `%2e%2e` segments first). */
function verbatim(
  method: string,
  pathAndQuery: string,
  body?: string,
): Promise<{ status: number; body: { code?: string; error?: string } }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: "127.0.0.1", port: fixture.server.port, method, path: pathAndQuery },
      (response) => {
        let text = "";
        response.on("data", (chunk) => {
          text += chunk;
        });
        response.on("end", () => {
          let parsed: { code?: string; error?: string } = {};
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = { error: text };
          }
          resolve({ status: response.statusCode ?? 0, body: parsed });
        });
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

describe("request size limits", () => {
  it("refuses a JSON body over the limit with 413 and a clear message", async () => {
    const response = await fixture.api<{ code: string; error: string; limit_bytes: number }>(
      "POST",
      "/api/projects",
      { name: "x".repeat(JSON_LIMIT) },
    );
    expect(response.status).toBe(413);
    expect(response.body).toMatchObject({ code: "payload_too_large", limit_bytes: JSON_LIMIT });
    expect(response.body.error).toContain("TANDEM_MAX_JSON_BODY_BYTES");
    // Just under the limit, the body is read and judged on its content (a name that long is a 400).
    const under = await fixture.api("POST", "/api/projects", { name: "x".repeat(JSON_LIMIT - 100) });
    expect(under.status).not.toBe(413);
  });

  it("answers 413 from the declared Content-Length alone, without waiting for the body", async () => {
    const declared = 1024 * 1024 * 1024;
    const head = `POST /api/projects HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n`;
    let first = true;
    const response = await rawRequest(fixture.server.port, head, () => {
      if (!first) return null;
      first = false;
      return Buffer.from('{"name":"');
    });
    expect(response.status).toBe(413);
  });

  it("counts a chunked body as it streams and stops it just past the limit", async () => {
    const head =
      "POST /api/projects HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
    const piece = Buffer.alloc(16 * 1024, "a");
    let sentChunks = 0;
    const response = await rawRequest(fixture.server.port, head, () => {
      // Never ends on its own: only the server's answer stops it (or 64 MiB, a failure).
      if (sentChunks++ > 4096) return null;
      return Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from("\r\n")]);
    });
    expect(response.status).toBe(413);
    expect(response.sent).toBeLessThan(8 * 1024 * 1024);
  });

  it("limits raw uploads by TANDEM_MAX_UPLOAD_BYTES, larger than the JSON limit", async () => {
    const threadId = await startThread(await projectWith(chat), "assistant");
    const url = `${fixture.server.baseUrl}/api/threads/${threadId}/fs/big.bin`;
    const fits = await fetch(url, { method: "PUT", body: Buffer.alloc(UPLOAD_LIMIT - 1) });
    expect(fits.status).toBe(201);
    const tooBig = await fetch(url, { method: "PUT", body: Buffer.alloc(UPLOAD_LIMIT + 1) });
    expect(tooBig.status).toBe(413);
    expect(((await tooBig.json()) as { error: string }).error).toContain("TANDEM_MAX_UPLOAD_BYTES");
  });
});

describe("the thread filesystem refuses paths that leave it", () => {
  it("refuses traversal through /api/threads/:id/fs, keeps the files, and accepts ordinary names", async () => {
    const threadId = await startThread(await projectWith(chat), "assistant");
    const base = `${fixture.server.baseUrl}/api/threads/${threadId}/fs`;
    const fsPath = `/api/threads/${threadId}/fs`;
    const put = await fetch(`${base}/docs/${encodeURIComponent("notes (2).md")}`, {
      method: "PUT",
      body: "hi",
    });
    expect(put.status).toBe(201);
    expect(((await put.json()) as { path: string }).path).toBe("/docs/notes (2).md");

    for (const raw of [
      "/%2e%2e/%2e%2e/etc/passwd",
      "/docs/%252e%252e/secret",
      "/docs/..%2f..%2fsecret",
      "/a%5c..%5csecret",
      "/a%00.txt",
      `/${"x".repeat(300)}`,
      `/${"d/".repeat(600)}f`,
    ]) {
      for (const method of ["GET", "PUT", "DELETE"]) {
        const response = await verbatim(method, `${fsPath}${raw}`, method === "PUT" ? "x" : undefined);
        const label = `${method} ${raw}: ${response.status} ${JSON.stringify(response.body).slice(0, 200)}`;
        if (raw.startsWith("/%2e%2e")) {
          // Next resolves dot segments (even encoded ones) before routing: the request never
          // reaches the filesystem route, and lands on a 404 page outside the thread.
          expect(response.status, label).toBe(404);
        } else {
          expect(response.status, label).toBe(400);
          expect(response.body.code, label).toBe("invalid_path");
        }
      }
    }
    for (const directory of ["../..", "/docs/../..", "..\\..", "/docs\u0000", "file:///etc"]) {
      const listed = await fetch(`${base}?path=${encodeURIComponent(directory)}`);
      expect(listed.status, directory).toBe(400);
      expect(((await listed.json()) as { code: string }).code).toBe("invalid_path");
    }
    const listing = (await (await fetch(`${base}?path=/docs`)).json()) as { entries: { path: string }[] };
    expect(listing.entries.map((entry) => entry.path)).toEqual(["/docs/notes (2).md"]);
    const root = (await (await fetch(base)).json()) as { entries: { path: string }[] };
    expect(root.entries.map((entry) => entry.path)).toEqual(["/docs"]);
  });

  it("refuses traversal in attachment paths and upload names", async () => {
    const threadId = await startThread(await projectWith(chat), "assistant");
    for (const attachments of [
      ["../../etc/passwd"],
      [{ path: "/docs/..\\..\\x" }],
      [{ path: "%2e%2e/x" }],
      [{ name: "../evil.txt", mimeType: "text/plain", data: "aGk=" }],
      [{ name: "a\u0000b.txt", mimeType: "text/plain", data: "aGk=" }],
    ]) {
      const response = await fixture.api<{ code: string }>("POST", `/api/threads/${threadId}/messages`, {
        content: "hi",
        attachments,
      });
      expect(response.status, JSON.stringify(attachments)).toBe(400);
    }
  });
});
