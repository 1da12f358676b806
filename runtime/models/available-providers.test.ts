import { describe, expect, it } from "vitest";
import { availableProviders, publicBaseURL } from "./available-providers";

const available = (env: Record<string, string | undefined>) =>
  availableProviders(env)
    .filter((provider) => provider.available)
    .map((provider) => provider.provider);

describe("available providers", () => {
  it("reads keys and endpoints by variable name; scripted is always there", () => {
    expect(available({})).toEqual(["scripted"]);
    expect(available({ OPENAI_API_KEY: "sk-1", ANTHROPIC_API_KEY: "" })).toEqual(["openai", "scripted"]);
    expect(available({ ANTHROPIC_API_KEY: "a" })).toEqual(["anthropic", "scripted"]);
    expect(available({ OLLAMA_BASE_URL: "http://127.0.0.1:11434/v1" })).toEqual([
      "openai-compatible",
      "scripted",
    ]);
    expect(available({ OPENAI_COMPATIBLE_BASE_URL: "not a url" })).toEqual(["scripted"]);
  });

  it("prefers OPENAI_COMPATIBLE_BASE_URL and names its key variable only when set", () => {
    const [, , compatible] = availableProviders({
      OPENAI_COMPATIBLE_BASE_URL: "https://llm.example.com/v1/",
      OLLAMA_BASE_URL: "http://127.0.0.1:11434/v1",
      OPENAI_COMPATIBLE_API_KEY: "secret",
    });
    expect(compatible).toEqual({
      provider: "openai-compatible",
      available: true,
      requires: ["OPENAI_COMPATIBLE_BASE_URL", "OLLAMA_BASE_URL"],
      baseURL: "https://llm.example.com/v1",
      apiKeyEnv: "OPENAI_COMPATIBLE_API_KEY",
    });
    expect(JSON.stringify(availableProviders({ OPENAI_API_KEY: "sk-secret" }))).not.toContain("sk-secret");
  });

  it("strips credentials, query and fragment from the endpoint", () => {
    expect(publicBaseURL("http://user:pass@host:8080/v1?key=abc#x")).toBe("http://host:8080/v1");
    expect(publicBaseURL("ftp://host/v1")).toBeUndefined();
    expect(publicBaseURL("nonsense")).toBeUndefined();
  });
});
