// The browser's client for the access routes (accounts, members, keys, credentials, audit), in the
// style of client.ts: JSON in, zod-parsed JSON out, failures as ApiError with the server's message.
import type { z } from "zod";
import type { KeyScope, ProjectRole } from "@/lib/access/roles";
import { ApiErrorBodySchema } from "@/lib/contracts/server";
import {
  type AccountSession,
  type AccountUser,
  ApiKeyListSchema,
  type ApiKeyView,
  AuditListSchema,
  type AuditPage,
  CreatedApiKeySchema,
  CreatedUserSchema,
  CredentialListSchema,
  type CredentialView,
  MemberListSchema,
  type ProjectMember,
  SessionSchema,
  UserListSchema,
} from "./access-schemas";
import { ApiError } from "./client";

/** Without accounts (or on a server that predates them) nobody is signed in and nothing is needed. */
export const NO_ACCOUNTS: AccountSession = { accounts: false, user: null };

export function createAccessClient(options: { baseUrl?: string; fetch?: typeof fetch } = {}) {
  const baseUrl = options.baseUrl ?? "";
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));

  async function call(method: string, path: string, body?: unknown): Promise<Response> {
    try {
      return await doFetch(`${baseUrl}${path}`, {
        method,
        credentials: "same-origin",
        headers: body === undefined ? {} : { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      throw new ApiError(
        0,
        "network_error",
        `Could not reach the Tandem server (${(error as Error).message}).`,
        null,
      );
    }
  }

  async function read<Schema extends z.ZodType>(
    response: Response,
    schema: Schema,
  ): Promise<z.output<Schema>> {
    const payload: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      const parsed = ApiErrorBodySchema.safeParse(payload);
      throw new ApiError(
        response.status,
        parsed.success ? (parsed.data.code ?? "error") : "error",
        parsed.success ? parsed.data.error : `The server answered ${response.status}.`,
        payload,
      );
    }
    return schema.parse(payload);
  }

  async function request<Schema extends z.ZodType>(
    method: string,
    path: string,
    schema: Schema,
    body?: unknown,
  ): Promise<z.output<Schema>> {
    return read(await call(method, path, body), schema);
  }

  async function requestEmpty(method: string, path: string, body?: unknown): Promise<void> {
    const response = await call(method, path, body);
    if (!response.ok) await read(response, ApiErrorBodySchema);
  }

  const project = (id: string) => `/api/projects/${encodeURIComponent(id)}`;

  return {
    auth: {
      /** Who is signed in; a server without the route (no accounts) answers as the local default. */
      session: async (): Promise<AccountSession> => {
        const response = await call("GET", "/api/auth/session");
        if (response.status === 404) return NO_ACCOUNTS;
        if (response.status === 401) return { accounts: true, user: null };
        return read(response, SessionSchema);
      },
      setup: async (input: { email: string; password: string; name: string }): Promise<void> =>
        requestEmpty("POST", "/api/auth/setup", input),
      login: async (input: { email: string; password: string }): Promise<void> =>
        requestEmpty("POST", "/api/auth/login", input),
      logout: async (): Promise<void> => requestEmpty("POST", "/api/auth/logout"),
    },
    users: {
      create: async (input: {
        email: string;
        password: string;
        name: string;
        admin: boolean;
      }): Promise<AccountUser> => (await request("POST", "/api/users", CreatedUserSchema, input)).user,
      /** Every account (admins); rejects on a server that does not list them. */
      list: async (): Promise<AccountUser[]> => (await request("GET", "/api/users", UserListSchema)).users,
    },
    members: {
      list: async (projectId: string): Promise<ProjectMember[]> =>
        (await request("GET", `${project(projectId)}/members`, MemberListSchema)).members,
      put: async (projectId: string, userId: string, role: ProjectRole): Promise<ProjectMember[]> =>
        (
          await request(
            "PUT",
            `${project(projectId)}/members/${encodeURIComponent(userId)}`,
            MemberListSchema,
            {
              role,
            },
          )
        ).members,
      remove: async (projectId: string, userId: string): Promise<ProjectMember[]> => {
        const response = await call("DELETE", `${project(projectId)}/members/${encodeURIComponent(userId)}`);
        if (response.status === 204) return [];
        return (await read(response, MemberListSchema)).members;
      },
    },
    keys: {
      list: async (projectId: string): Promise<ApiKeyView[]> =>
        (await request("GET", `${project(projectId)}/keys`, ApiKeyListSchema)).keys,
      create: (projectId: string, name: string, scopes: KeyScope[]) =>
        request("POST", `${project(projectId)}/keys`, CreatedApiKeySchema, { name, scopes }),
      revoke: (projectId: string, keyId: string): Promise<void> =>
        requestEmpty("DELETE", `${project(projectId)}/keys/${encodeURIComponent(keyId)}`),
    },
    credentials: {
      list: async (projectId: string): Promise<CredentialView[]> =>
        (await request("GET", `${project(projectId)}/credentials`, CredentialListSchema)).credentials,
      put: (projectId: string, name: string, value: string): Promise<void> =>
        requestEmpty("PUT", `${project(projectId)}/credentials/${encodeURIComponent(name)}`, { value }),
      remove: (projectId: string, name: string): Promise<void> =>
        requestEmpty("DELETE", `${project(projectId)}/credentials/${encodeURIComponent(name)}`),
    },
    audit: {
      /** One page, newest first, of the entries the query's filters keep (lib/access/audit-filter.ts). */
      list: async (projectId: string, query: URLSearchParams): Promise<AuditPage> => {
        const page = await request("GET", `${project(projectId)}/audit?${query}`, AuditListSchema);
        return { entries: page.entries, nextBefore: page.next_before ?? null };
      },
    },
  };
}

export type AccessClient = ReturnType<typeof createAccessClient>;
