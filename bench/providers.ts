// Benchmark: a rate-limited provider (issue 47). 500 ai_human threads, each with one message, all at
// once in one process, against a local OpenAI-compatible server that accepts 50 requests in any
// sliding second and answers HTTP 429 (with `retry-after-ms`: when the oldest of those 50 leaves the
// window) beyond it; each accepted call answers after LATENCY_MS. Measured: every thread answered
// (none failed), the wall time against the ideal (500 / 50 = 10 s), and the share of requests the
// provider rejected — overall, and once the rate has adapted (requests sent from ADAPT_MS after the
// provider's first 429). The runtime's pace (learnt from 429s), its adaptive concurrency limit
// (halved on a 429, +1/limit per success) and the per-model pause after a 429 are what keep that
// share low; the table over time shows them at work.
// BENCH_PROVIDERS_THREADS and BENCH_PROVIDERS_RATE change the two numbers (a machine that cannot send
// 50 calls/s never meets the limit: a lower rate shows the adaptation there).
import { startFakeOpenAIServer, textReply } from "../test/support/fake-openai-server";
import { type BaselineResult, printBaselineBeside } from "./baseline";
import type { Cluster } from "./cluster";
import { printTable, section } from "./format";
import { countThreads, createThreads, openBenchRuntime, waitUntil } from "./harness";

function setting(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`${name} must be a whole number ≥ 1; got "${raw}".`);
  return value;
}

const THREADS = setting("BENCH_PROVIDERS_THREADS", 500);
const RATE_PER_SECOND = setting("BENCH_PROVIDERS_RATE", 50);
const LATENCY_MS = 100;
const ADAPT_MS = 10_000;

export interface ProvidersResult {
  threads: number;
  answered: number;
  failed: number;
  wallMs: number;
  requests: number;
  rejected: number;
  /** Rejected / requests, all of them and those sent from ADAPT_MS after the first 429 (all when none). */
  rejectedShare: number;
  rejectedShareAdapted: number;
}

export async function runProviders(
  cluster: Cluster,
  baseline: BaselineResult | null,
): Promise<ProvidersResult> {
  section(
    `Providers: ${THREADS} threads against a provider allowing ${RATE_PER_SECOND} requests/s (HTTP 429 beyond it)`,
  );
  const accepted: number[] = [];
  const log: { at: number; ok: boolean }[] = [];
  const provider = await startFakeOpenAIServer((body) => {
    const now = Date.now();
    while (accepted.length > 0 && accepted[0]! <= now - 1000) accepted.shift();
    if (accepted.length >= RATE_PER_SECOND) {
      log.push({ at: now, ok: false });
      return {
        status: 429,
        body: { error: { message: "Rate limit reached for requests", type: "requests" } },
        headers: { "retry-after-ms": String(Math.max(1, accepted[0]! + 1000 - now)) },
      };
    }
    accepted.push(now);
    log.push({ at: now, ok: true });
    return {
      ...textReply(body.model, ["Answer."], { prompt_tokens: 10, completion_tokens: 2 }),
      firstChunkDelayMs: LATENCY_MS,
    };
  });
  const bench = await openBenchRuntime(cluster, {
    database: "bench_providers",
    bundle: {
      agents: [{ name: "chat", type: "ai_human", sideA: { label: "Assistant", prompt: "chat_prompt" } }],
      prompts: [
        {
          name: "chat_prompt",
          toolDescription: "Answer the user.",
          prompt: "Answer briefly.",
          model: "limited",
          includeChat: true,
        },
      ],
      models: [{ name: "limited", provider: "openai-compatible", model: "m", baseURL: provider.baseURL }],
      tools: [],
    },
  });
  try {
    const threadIds = await createThreads(bench, THREADS, "chat", (index) => `Question ${index}`, 50);
    const startedAt = Date.now();
    await bench.runtime.scheduler.start();
    await waitUntil(
      `all ${THREADS} threads to answer or fail`,
      async () => (await countThreads(bench.raw.sql, ["idle", "failed"])) === threadIds.length,
      180_000,
      100,
    );
    const wallMs = Date.now() - startedAt;
    const answered = await countThreads(bench.raw.sql, ["idle"]);
    const failed = await countThreads(bench.raw.sql, ["failed"]);
    const firstAt = log[0]?.at ?? startedAt;
    const firstRejectedAt = log.find((entry) => !entry.ok)?.at;
    const adapted =
      firstRejectedAt === undefined ? log : log.filter((entry) => entry.at >= firstRejectedAt + ADAPT_MS);
    const rejected = log.filter((entry) => !entry.ok).length;
    const result: ProvidersResult = {
      threads: THREADS,
      answered,
      failed,
      wallMs,
      requests: log.length,
      rejected,
      rejectedShare: rejected / Math.max(1, log.length),
      rejectedShareAdapted: adapted.filter((entry) => !entry.ok).length / Math.max(1, adapted.length),
    };
    // Per second from the first request; a long run in wider steps (at most 20 rows).
    const lastAt = log.at(-1)?.at ?? firstAt;
    const step = Math.max(1, Math.ceil((lastAt - firstAt + 1) / 1000 / 20));
    const buckets = new Map<number, { ok: number; rejected: number }>();
    for (const entry of log) {
      const bucket = Math.floor((entry.at - firstAt) / 1000 / step);
      const counts = buckets.get(bucket) ?? { ok: 0, rejected: 0 };
      if (entry.ok) counts.ok++;
      else counts.rejected++;
      buckets.set(bucket, counts);
    }
    printTable(
      `Requests the provider saw, per ${step === 1 ? "second" : `${step} s`} from the first`,
      ["seconds", "accepted", "rejected (429)"],
      [...buckets].map(([bucket, counts]) => [
        `${bucket * step}–${(bucket + 1) * step}`,
        String(counts.ok),
        String(counts.rejected),
      ]),
    );
    printTable(
      `${THREADS} threads, one call each (ideal: ${THREADS / RATE_PER_SECOND} s at ${RATE_PER_SECOND}/s)`,
      ["measure", "value"],
      [
        ["threads answered", String(answered)],
        ["threads failed", String(failed)],
        ["wall time (s)", wallMs / 1000],
        ["answered per second", answered / (wallMs / 1000)],
        ["requests sent", String(result.requests)],
        ["rejected with 429, share of all requests", result.rejectedShare],
        [
          `rejected with 429, share from ${ADAPT_MS / 1000} s after the first 429`,
          result.rejectedShareAdapted,
        ],
      ],
    );
    printBaselineBeside("Providers", baseline, (measured) => [
      ["single-row INSERT/s, one connection", measured.insertOneConnection.perSecond],
      ["BEGIN; INSERT; COMMIT/s, ten connections", measured.transactionTenConnections.perSecond],
    ]);
    return result;
  } finally {
    await bench.close();
    await provider.close();
  }
}
