// Tiny helpers for talking JSON to a test server.
export interface JsonResponse<Body = unknown> {
  status: number;
  body: Body;
  headers: Headers;
}

export async function requestJson<Body = Record<string, unknown>>(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
  init: { rawBody?: string; headers?: Record<string, string> } = {},
): Promise<JsonResponse<Body>> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(body !== undefined || init.rawBody !== undefined ? { "content-type": "application/json" } : {}),
      ...init.headers,
    },
    body: init.rawBody ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body: parsed as Body, headers: response.headers };
}
