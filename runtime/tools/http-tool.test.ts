import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { HttpToolDefinition } from "@/lib/standard";
import { addressRefusal, httpAddressPolicy } from "./http-address-policy";
import { HttpToolError, isPrivateAddress, planHttpRequest, runHttpTool } from "./http-tool";

const weather: HttpToolDefinition = {
  name: "weather",
  description: "Weather for a city",
  kind: "http",
  method: "GET",
  url: "https://api.example.com/cities/{city}/weather",
  headers: { Authorization: { env: "WEATHER_KEY", prefix: "Bearer " }, "X-Client": "tandem" },
};

describe("planHttpRequest", () => {
  it("fills the URL template with encoded arguments and sends the rest as the query", () => {
    expect(
      planHttpRequest(weather, { city: "São Paulo/Centro", units: "metric" }, { WEATHER_KEY: "k1" }),
    ).toEqual({
      url: "https://api.example.com/cities/S%C3%A3o%20Paulo%2FCentro/weather?units=metric",
      method: "GET",
      headers: { Authorization: "Bearer k1", "X-Client": "tandem" },
    });
  });

  it("sends the remaining arguments as a JSON body for POST", () => {
    const plan = planHttpRequest({ ...weather, method: "POST", headers: {} }, { city: "Oslo", days: 3 }, {});
    expect(plan).toEqual({
      url: "https://api.example.com/cities/Oslo/weather",
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"days":3}',
    });
  });

  it("names a missing environment variable without revealing anything else", () => {
    expect(() => planHttpRequest(weather, { city: "Oslo" }, {})).toThrow(
      new HttpToolError(
        "The server has no environment variable WEATHER_KEY (needed for header Authorization).",
      ),
    );
  });

  it("refuses a missing URL argument", () => {
    expect(() => planHttpRequest(weather, {}, { WEATHER_KEY: "k" })).toThrow(
      'Missing argument "city" for the URL.',
    );
  });
});

describe("private addresses", () => {
  it.each([
    "127.0.0.1",
    "127.255.0.9",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "169.254.0.1",
    "100.64.0.1",
    "0.0.0.0",
    "255.255.255.255",
    "::1",
    "::",
    "fc00::1",
    "fd00::1",
    "fe80::1",
    "fe80::1%eth0",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:169.254.169.254",
    "0:0:0:0:0:ffff:10.0.0.1",
    "::127.0.0.1",
    "64:ff9b::a9fe:a9fe",
    "[::1]",
    "not-an-address",
  ])("%s is private", (address) => expect(isPrivateAddress(address)).toBe(true));
  it.each(["93.184.216.34", "172.32.0.1", "172.15.255.255", "2606:4700::1111", "::ffff:8.8.8.8"])(
    "%s is public",
    (address) => expect(isPrivateAddress(address)).toBe(false),
  );
});

describe("the address policy", () => {
  it("allows everything private with TANDEM_HTTP_TOOLS_ALLOW_PRIVATE=true (or 1, yes)", () => {
    for (const value of ["true", "1", "yes", "TRUE"]) {
      const policy = httpAddressPolicy({ TANDEM_HTTP_TOOLS_ALLOW_PRIVATE: value });
      expect(addressRefusal(policy, "localhost", "127.0.0.1")).toBeNull();
    }
    const closed = httpAddressPolicy({ TANDEM_HTTP_TOOLS_ALLOW_PRIVATE: "false" });
    expect(addressRefusal(closed, "localhost", "127.0.0.1")).toMatch(
      /Refusing to call localhost \(127\.0\.0\.1\): it is a private or loopback address/,
    );
  });

  it("allows the hosts, addresses and ranges in TANDEM_HTTP_TOOLS_ALLOWED_HOSTS, and nothing else", () => {
    const policy = httpAddressPolicy({
      TANDEM_HTTP_TOOLS_ALLOWED_HOSTS: "api.internal, *.corp.example 10.0.0.0/8,192.168.1.5,[fd00::]/8",
    });
    expect(addressRefusal(policy, "api.internal", "172.16.0.4")).toBeNull();
    expect(addressRefusal(policy, "wiki.corp.example", "172.16.0.4")).toBeNull();
    expect(addressRefusal(policy, "corp.example", "172.16.0.4")).not.toBeNull();
    expect(addressRefusal(policy, "anything", "10.9.8.7")).toBeNull();
    expect(addressRefusal(policy, "anything", "::ffff:10.9.8.7")).toBeNull();
    expect(addressRefusal(policy, "anything", "192.168.1.5")).toBeNull();
    expect(addressRefusal(policy, "anything", "192.168.1.6")).not.toBeNull();
    expect(addressRefusal(policy, "anything", "fd12::1")).toBeNull();
    expect(addressRefusal(policy, "anything", "169.254.169.254")).not.toBeNull();
    expect(addressRefusal(policy, "evil.api.internal", "127.0.0.1")).not.toBeNull();
  });
});

describe("runHttpTool against real sockets", () => {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  });

  async function serve(handler: (request: IncomingMessage, response: ServerResponse) => void) {
    const server = createServer(handler);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return (server.address() as AddressInfo).port;
  }

  const toolFor = (url: string): HttpToolDefinition => ({ ...weather, url, headers: {} });

  it("refuses a loopback address unless allowed, as an error the executor turns into a tool result", async () => {
    const port = await serve((_request, response) => response.end("hello"));
    const local = toolFor(`http://127.0.0.1:${port}/{city}`);
    await expect(runHttpTool(local, { city: "x" }, { env: {} })).rejects.toThrow(HttpToolError);
    await expect(runHttpTool(local, { city: "x" }, { env: {} })).rejects.toThrow(/private or loopback/);
    await expect(
      runHttpTool(local, { city: "x" }, { env: { TANDEM_HTTP_TOOLS_ALLOW_PRIVATE: "true" } }),
    ).resolves.toEqual({ status: "success", text: "hello" });
    await expect(
      runHttpTool(local, { city: "x" }, { env: { TANDEM_HTTP_TOOLS_ALLOWED_HOSTS: "127.0.0.1" } }),
    ).resolves.toEqual({ status: "success", text: "hello" });
  });

  it("checks the addresses a name resolves to (localhost is loopback)", async () => {
    const port = await serve((_request, response) => response.end("hello"));
    await expect(
      runHttpTool(toolFor(`http://localhost:${port}/{city}`), { city: "x" }, { env: {} }),
    ).rejects.toThrow(/Refusing to call localhost \((127\.0\.0\.1|::1)\)/);
    await expect(
      runHttpTool(toolFor(`http://[::ffff:127.0.0.1]:${port}/{city}`), { city: "x" }, { env: {} }),
    ).rejects.toThrow(/private or loopback/);
  });

  it("re-checks every redirect hop", async () => {
    const port = await serve((_request, response) => {
      response.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" });
      response.end();
    });
    const env = { TANDEM_HTTP_TOOLS_ALLOWED_HOSTS: "127.0.0.1" };
    await expect(
      runHttpTool(toolFor(`http://127.0.0.1:${port}/{city}`), { city: "x" }, { env }),
    ).rejects.toThrow(/Refusing to call 169\.254\.169\.254/);
  });

  it("follows allowed redirects, and never sends header secrets to another origin", async () => {
    const seen: (string | undefined)[] = [];
    const target = await serve((request, response) => {
      seen.push(request.headers.authorization);
      response.end(`landed ${request.method}`);
    });
    const first = await serve((request, response) => {
      seen.push(request.headers.authorization);
      response.writeHead(303, { location: `http://localhost:${target}/final` });
      response.end();
    });
    const tool: HttpToolDefinition = {
      ...weather,
      method: "POST",
      url: `http://127.0.0.1:${first}/{city}`,
    };
    const env = { TANDEM_HTTP_TOOLS_ALLOW_PRIVATE: "true", WEATHER_KEY: "secret-key" };
    await expect(runHttpTool(tool, { city: "x" }, { env })).resolves.toEqual({
      status: "success",
      text: "landed GET",
    });
    expect(seen).toEqual(["Bearer secret-key", undefined]);
  });

  it("stops a redirect loop", async () => {
    const port = await serve((request, response) => {
      response.writeHead(307, { location: request.url ?? "/" });
      response.end();
    });
    const env = { TANDEM_HTTP_TOOLS_ALLOW_PRIVATE: "true" };
    await expect(
      runHttpTool(toolFor(`http://127.0.0.1:${port}/{city}`), { city: "x" }, { env }),
    ).rejects.toThrow(/Stopped after 5 redirects/);
  });
});
