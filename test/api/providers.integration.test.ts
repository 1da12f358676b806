// GET /api/providers against a real server: providers are reported from the environment by variable
// name, the OpenAI-compatible endpoint without its credentials, and no secret value ever leaves.
import { expect, it } from "vitest";
import { testServerForFile } from "../support/fixture";

const OPENAI_SECRET = "sk-openai-never-show-me-1234";
const ANTHROPIC_SECRET = "sk-ant-never-show-me-5678";
const COMPATIBLE_SECRET = "local-key-never-show-me-9012";
const URL_PASSWORD = "url-password-never-show-me";

const fixture = testServerForFile({
  OPENAI_API_KEY: OPENAI_SECRET,
  ANTHROPIC_API_KEY: ANTHROPIC_SECRET,
  OPENAI_COMPATIBLE_BASE_URL: `http://ollama:${URL_PASSWORD}@127.0.0.1:11434/v1/?token=${URL_PASSWORD}`,
  OPENAI_COMPATIBLE_API_KEY: COMPATIBLE_SECRET,
  OLLAMA_BASE_URL: "",
});

interface ProvidersBody {
  providers: {
    provider: string;
    available: boolean;
    requires: string[];
    apiKeyEnv?: string;
    baseURL?: string;
  }[];
}

it("reports every configured provider by variable name and never a secret value", async () => {
  const response = await fixture.api<ProvidersBody>("GET", "/api/providers");
  expect(response.status).toBe(200);
  expect(response.body.providers).toEqual([
    { provider: "openai", available: true, requires: ["OPENAI_API_KEY"], apiKeyEnv: "OPENAI_API_KEY" },
    {
      provider: "anthropic",
      available: true,
      requires: ["ANTHROPIC_API_KEY"],
      apiKeyEnv: "ANTHROPIC_API_KEY",
    },
    {
      provider: "openai-compatible",
      available: true,
      requires: ["OPENAI_COMPATIBLE_BASE_URL", "OLLAMA_BASE_URL"],
      baseURL: "http://127.0.0.1:11434/v1",
      apiKeyEnv: "OPENAI_COMPATIBLE_API_KEY",
    },
    { provider: "scripted", available: true, requires: [] },
  ]);
  const raw = JSON.stringify(response.body);
  for (const secret of [OPENAI_SECRET, ANTHROPIC_SECRET, COMPATIBLE_SECRET, URL_PASSWORD]) {
    expect(raw).not.toContain(secret);
  }
});

it("reports only the scripted provider when nothing is configured", async () => {
  await fixture.server.restart({
    OPENAI_API_KEY: "",
    ANTHROPIC_API_KEY: " ",
    OPENAI_COMPATIBLE_BASE_URL: "",
    OPENAI_COMPATIBLE_API_KEY: "",
    OLLAMA_BASE_URL: "not a url",
  });
  const response = await fixture.api<ProvidersBody>("GET", "/api/providers");
  expect(response.status).toBe(200);
  expect(response.body.providers.filter((provider) => provider.available)).toEqual([
    { provider: "scripted", available: true, requires: [] },
  ]);
  expect(response.body.providers.map((provider) => provider.provider)).toEqual([
    "openai",
    "anthropic",
    "openai-compatible",
    "scripted",
  ]);
});
