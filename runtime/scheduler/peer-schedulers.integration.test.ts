// How a scheduler knows whether other processes run threads on its database (PeerSchedulers), over
// the database's real notifications. What it changes (how much a process takes at once):
// runtime/scheduler/local-take.integration.test.ts.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Database } from "@/lib/db/database";
import { openTestDatabase, testDatabaseBackends } from "@/test/support/open-database";
import { PeerSchedulers, SCHEDULERS_CHANNEL } from "./peer-schedulers";

describe.each(testDatabaseBackends())("other schedulers on %s", (backend) => {
  let opened: Database | null = null;
  const started: PeerSchedulers[] = [];

  afterEach(async () => {
    for (const peers of started.splice(0)) await peers.stop();
    await opened?.close();
    opened = null;
  });

  const peersOf = async (owner: string, staleMs = 60_000) => {
    opened ??= await openTestDatabase(backend);
    const peers = new PeerSchedulers(opened.notifications, owner, staleMs);
    started.push(peers);
    await peers.start();
    return peers;
  };

  it("knows of another scheduler once it starts, both ways, until it says it leaves", async () => {
    const first = await peersOf("first");
    // Its own announcement does not count.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(first.alone()).toBe(true);
    const second = await peersOf("second");
    await vi.waitFor(() => expect(first.alone()).toBe(false), { timeout: 2_000, interval: 10 });
    // The second heard the first's answer, not a heartbeat (none is sent here).
    await vi.waitFor(() => expect(second.alone()).toBe(false), { timeout: 2_000, interval: 10 });
    await second.stop();
    await vi.waitFor(() => expect(first.alone()).toBe(true), { timeout: 2_000, interval: 10 });
  });

  it("forgets a scheduler not heard from for staleMs (it died without saying so)", async () => {
    const peers = await peersOf("survivor", 300);
    await opened!.notifications.notify(SCHEDULERS_CHANNEL, "+dead");
    await vi.waitFor(() => expect(peers.alone()).toBe(false), { timeout: 2_000, interval: 10 });
    const heardAt = performance.now();
    expect(peers.alone(heardAt)).toBe(false);
    expect(peers.alone(heardAt + 1_000)).toBe(true);
  });

  it("ignores what is not an announcement", async () => {
    const peers = await peersOf("listener");
    await opened!.notifications.notify(SCHEDULERS_CHANNEL, "dead");
    await opened!.notifications.notify(SCHEDULERS_CHANNEL, "+");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(peers.alone()).toBe(true);
    await opened!.notifications.notify(SCHEDULERS_CHANNEL, "+other");
    await vi.waitFor(() => expect(peers.alone()).toBe(false), { timeout: 2_000, interval: 10 });
  });
});
