import { openDatabase } from "@/lib/db/database";
import { createRuntime } from "@/runtime/runtime";
import { instrumentDatabase, topStatements } from "./bench/instrumented-database";
import { fanOutBundle } from "./bench/subagents";

const url = "postgresql://postgres@127.0.0.1:55432/fan";
const raw = await openDatabase({ kind: "postgres", url }, { maxConnections: 20 });
const { database: db, counters, statements } = instrumentDatabase(raw);
process.env.TANDEM_CONCURRENCY = "32";
const runtime = createRuntime(db);
const N = 200;
const project = await runtime.projects.create({ name: "fan", definitions: fanOutBundle(N) });
await runtime.scheduler.start();
const before = { ...counters };
const t0 = Date.now();
const { threadId } = await runtime.threads.create({
  projectId: project.id,
  agentName: "orchestrator",
  message: "go",
});
for (;;) {
  const rows = await raw.sql.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM messages WHERE thread_id = $1 AND subagent_id IS NOT NULL",
    [threadId],
  );
  if (Number(rows[0]?.n) >= N) break;
  await new Promise((r) => setTimeout(r, 20));
}
console.log(
  "done in",
  Date.now() - t0,
  "statements",
  counters.statements - before.statements,
  "transactions",
  counters.transactions - before.transactions,
);
for (const s of topStatements(statements, 30))
  console.log(
    String(s.count).padStart(6),
    s.ms.toFixed(0).padStart(6),
    s.statement.replace(/\s+/g, " ").slice(0, 130),
  );
await runtime.scheduler.stop();
await db.close();
process.exit(0);
