// The dashboard's rollups (runtime/store/analytics-rollups.ts) answer exactly what the raw rows
// answer: random ranges that cut hours and days, by hour and by day, over three days of random model
// calls and tool runs, compared with the raw-rows reference and with figures computed here from the
// generated rows; a call logged late into a closed hour, and a deleted thread, show from the next
// read on; the answer does read the rollups. On PGlite always, on Postgres when DATABASE_URL names one.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AnalyticsRange } from "@/lib/contracts/analytics";
import type { Database } from "@/lib/db/database";
import { openTestDatabase, testDatabaseBackends } from "../../test/support/open-database";
import { insertTestProject, insertTestThread } from "../../test/support/thread-rows";
import { AnalyticsService } from "../services/analytics-service";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** "Now": 20 minutes into an hour, so the hour in progress holds calls the rollups must not cover. */
const NOW = Date.UTC(2026, 10, 20, 14, 20);
const SPAN = 3 * DAY;

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Call {
  thread: string;
  agent: string;
  model: string;
  at: number;
  latency: number;
  input: number;
  output: number;
  cost: number;
  error: string | null;
}

/** Postgres's percentile_cont, rounded like the service. */
function percentile(values: number[], fraction: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const position = fraction * (sorted.length - 1);
  const low = Math.floor(position);
  const lowValue = sorted[low] ?? 0;
  const value = lowValue + ((sorted[Math.ceil(position)] ?? 0) - lowValue) * (position - low);
  return Math.round(value * 10) / 10;
}

/** The answer with costs rounded (sums of the same floats in another order differ in the last bits). */
function comparable(answer: unknown): unknown {
  return JSON.parse(
    JSON.stringify(answer, (key, value) =>
      key === "cost_usd" && typeof value === "number" ? Math.round(value * 1e9) / 1e9 : value,
    ),
  );
}

describe.each(testDatabaseBackends())("analytics rollups on %s", (backend) => {
  let database: Database;
  let projectId: string;
  const threads: string[] = [];
  const calls: Call[] = [];
  let rolled: AnalyticsService;
  let raw: AnalyticsService;
  const next = random(45);

  async function insertCalls(batch: Call[]): Promise<void> {
    await database.sql.query(
      `INSERT INTO model_calls (id, thread_id, side, model_name, answered_by, request, error, input_tokens, output_tokens,
                                cost_usd, latency_ms, created_at, project_id, agent_name)
       SELECT gen_random_uuid(), c.thread, 'a', c.model, c.model, '{}'::json, c.error, c.input, c.output, c.cost,
              c.latency, c.at * 1000, $1::uuid, c.agent
         FROM jsonb_to_recordset($2::text::jsonb) AS c(thread uuid, agent text, model text, at bigint, latency int,
              input int, output int, cost float8, error text)`,
      [projectId, JSON.stringify(batch)],
    );
  }

  function randomCall(at: number): Call {
    const thread = threads[Math.floor(next() * threads.length)] ?? "";
    const failed = next() < 0.08;
    const input = failed ? 0 : 100 + Math.floor(next() * 2000);
    const output = failed ? 0 : 10 + Math.floor(next() * 400);
    return {
      thread,
      agent: `agent_${threads.indexOf(thread) % 3}`,
      model: `model_${Math.floor(next() * 2)}`,
      at,
      // Both sides of 64 ms: exact bins below, 5 % bins above.
      latency: next() < 0.4 ? Math.floor(next() * 64) : 64 + Math.floor(next() * 4000),
      input,
      output,
      cost: input * 3e-6 + output * 15e-6,
      error: failed ? "rate limited" : null,
    };
  }

  beforeAll(async () => {
    database = await openTestDatabase(backend);
    projectId = await insertTestProject(database.sql);
    for (let index = 0; index < 6; index++) threads.push(await insertTestThread(database.sql, projectId));
    // Agents per thread: the threads' rows say "agent"; the calls carry their own agent_name.
    const batch: Call[] = [];
    for (let index = 0; index < 1500; index++) batch.push(randomCall(NOW - Math.floor(next() * SPAN)));
    calls.push(...batch);
    await insertCalls(batch);
    const tools = threads.flatMap((thread) =>
      Array.from({ length: 60 }, (_, index) => {
        const at = NOW - Math.floor(next() * SPAN);
        return {
          thread,
          id: `call_${index}`,
          name: `tool_${index % 3}`,
          status: next() < 0.1 ? "error" : "success",
          started: at * 1000,
          finished: at * 1000 + Math.floor(next() * 2_000_000),
        };
      }),
    );
    await database.sql.query(
      `INSERT INTO tool_runs (id, thread_id, tool_call_id, name, args, status, result, started_at, finished_at, project_id)
       SELECT gen_random_uuid(), t.thread, t.id, t.name, '{}'::jsonb, t.status, 'ok', t.started, t.finished, $1::uuid
         FROM jsonb_to_recordset($2::text::jsonb) AS t(thread uuid, id text, name text, status text, started bigint, finished bigint)`,
      [projectId, JSON.stringify(tools)],
    );
    // Small chunks: the 72 pending hours take a read and a background catch-up of four chunks.
    rolled = new AnalyticsService(database.sql, { now: () => NOW, rollUpChunk: 20 });
    raw = new AnalyticsService(database.sql, { rollups: false });
  }, 120_000);

  afterAll(async () => {
    await database?.close();
  });

  const both = async (range: AnalyticsRange) => {
    const fromRollups = await rolled.ofProject(projectId, range, { outcomes: true });
    const fromRaw = await raw.ofProject(projectId, range, { outcomes: true });
    return { fromRollups, fromRaw };
  };

  it("rolls up the closed hours and days (the first read from the raw rows while it catches up), and reads them", async () => {
    const range: AnalyticsRange = { from: NOW - SPAN, to: NOW, bucket: "day" };
    const first = await rolled.ofProject(projectId, range, { outcomes: true });
    expect(comparable(first)).toEqual(comparable(await raw.ofProject(projectId, range, { outcomes: true })));
    await rolled.settled(projectId);
    const rows = await database.sql.query<{ grain: string; n: number }>(
      `SELECT grain, count(DISTINCT start)::int AS n FROM analytics_rollups
        WHERE project_id = $1 AND source = 'call' AND dim = 'total' GROUP BY grain ORDER BY grain`,
      [projectId],
    );
    // 72 hours before the one in progress (3 days back from 14:20: hours 15:00 three days ago … 13:00
    // today, plus the hour holding NOW - SPAN), and the two whole days before today.
    expect(rows).toEqual([
      { grain: "day", n: 3 },
      { grain: "hour", n: 72 },
    ]);
    const pending = await database.sql.query<{ n: number }>(
      "SELECT count(DISTINCT (grain, start))::int AS n FROM analytics_pending WHERE project_id = $1 AND source = 'call' AND start < $2",
      [projectId, String(Math.floor(NOW / HOUR) * HOUR * 1000)],
    );
    expect(pending[0]?.n).toBe(1); // today's day: not closed yet

    // The answer comes from the rollups: a figure changed in a day's row shows in that day's bucket.
    const day = Date.UTC(2026, 10, 18);
    await database.sql.query(
      `UPDATE analytics_rollups SET calls = calls + 1000
        WHERE project_id = $1 AND source = 'call' AND grain = 'day' AND dim = 'total' AND start = $2`,
      [projectId, String(day * 1000)],
    );
    const { fromRollups, fromRaw } = await both({ from: day, to: day + DAY, bucket: "day" });
    expect(fromRollups.series[0]?.model_calls).toBe((fromRaw.series[0]?.model_calls ?? 0) + 1000);
    await database.sql.query(
      `UPDATE analytics_rollups SET calls = calls - 1000
        WHERE project_id = $1 AND source = 'call' AND grain = 'day' AND dim = 'total' AND start = $2`,
      [projectId, String(day * 1000)],
    );
  });

  it("answers what the raw rows answer for random ranges that cut hours and days", async () => {
    const pick = random(7);
    for (let sample = 0; sample < 16; sample++) {
      const a = NOW - SPAN - HOUR + Math.floor(pick() * (SPAN + HOUR));
      const b = NOW - SPAN - HOUR + Math.floor(pick() * (SPAN + HOUR));
      const from = Math.min(a, b);
      const to = Math.max(a, b) + 1;
      const range: AnalyticsRange = { from, to, bucket: sample % 2 === 0 ? "hour" : "day" };
      const { fromRollups, fromRaw } = await both(range);
      expect(comparable(fromRollups), JSON.stringify(range)).toEqual(comparable(fromRaw));
    }
  });

  it("answers the generated rows' figures per bucket and by model", async () => {
    const from = NOW - 2 * DAY - 17 * 60_000;
    const to = NOW;
    const answer = await rolled.ofProject(projectId, { from, to, bucket: "hour" });
    const inRange = calls.filter((call) => call.at >= from && call.at < to);
    expect(answer.series.reduce((sum, point) => sum + point.model_calls, 0)).toBe(inRange.length);
    for (const point of answer.series) {
      const start = Date.parse(point.t);
      const bucket = inRange.filter((call) => call.at >= start && call.at < start + HOUR);
      expect(point.model_calls).toBe(bucket.length);
      expect(point.input_tokens).toBe(bucket.reduce((sum, call) => sum + call.input, 0));
      expect(point.errors).toBe(bucket.filter((call) => call.error).length);
      expect(point.latency_p50_ms).toBe(
        percentile(
          bucket.map((call) => call.latency),
          0.5,
        ),
      );
      expect(point.latency_p95_ms).toBe(
        percentile(
          bucket.map((call) => call.latency),
          0.95,
        ),
      );
    }
    for (const model of answer.by_model) {
      const mine = inRange.filter((call) => call.model === model.model);
      expect(model.model_calls).toBe(mine.length);
      expect(model.output_tokens).toBe(mine.reduce((sum, call) => sum + call.output, 0));
      // Bins: within 2.5 % (5 % bins above 64 ms, read at their geometric middle).
      const exact = percentile(
        mine.map((call) => call.latency),
        0.95,
      );
      expect(Math.abs(model.latency_p95_ms - exact) / exact).toBeLessThan(0.026);
    }
  });

  it("counts a call logged late into a closed hour, and forgets a deleted thread's, from the next read", async () => {
    const range: AnalyticsRange = { from: NOW - SPAN, to: NOW, bucket: "day" };
    const before = await rolled.ofProject(projectId, range);
    const late = randomCall(NOW - 2 * DAY + 5 * 60_000);
    calls.push(late);
    await insertCalls([late]);
    const after = await both(range);
    expect(comparable(after.fromRollups)).toEqual(comparable(after.fromRaw));
    const total = (answer: typeof before) => answer.series.reduce((sum, point) => sum + point.model_calls, 0);
    expect(total(after.fromRollups)).toBe(total(before) + 1);

    const gone = threads[0] ?? randomUUID();
    const removed = calls.filter((call) => call.thread === gone && call.at >= range.from).length;
    expect(removed).toBeGreaterThan(0);
    await database.sql.query("DELETE FROM threads WHERE id = $1", [gone]);
    // Its calls spread over more hours than one read rolls up: the rest goes on in the background.
    await rolled.ofProject(projectId, range);
    await rolled.settled(projectId);
    const pending = await database.sql.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM analytics_pending WHERE project_id = $1 AND grain = 'hour' AND start < $2",
      [projectId, String(Math.floor(NOW / HOUR) * HOUR * 1000)],
    );
    expect(pending[0]?.n).toBe(0);
    const deleted = await both(range);
    expect(comparable(deleted.fromRollups)).toEqual(comparable(deleted.fromRaw));
    expect(total(deleted.fromRollups)).toBe(total(after.fromRollups) - removed);
  });
});
