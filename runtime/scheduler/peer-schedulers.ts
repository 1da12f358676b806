// Which other processes run threads on this database: each scheduler says so on a channel when it
// starts and at every heartbeat, and says it leaves when it stops or drains. A scheduler that hears
// a newcomer answers at once, so two processes know of each other as soon as the second has started.
// A process that hears nobody within a few heartbeats is alone: what it makes runnable itself has
// nobody else to go to (Scheduler.takeLocally), so it takes all of it.
import type { NotificationBus } from "@/lib/db/notifications";

export const SCHEDULERS_CHANNEL = "tandem_schedulers";

/** "+owner": running threads here (started, still alive); "-owner": stopped running threads. */
const HERE = "+";
const GONE = "-";

export class PeerSchedulers {
  /** performance.now() when each other scheduler last said it runs threads. */
  private readonly lastHeard = new Map<string, number>();
  /** This scheduler's announcements not yet sent: its goodbye must go out after them. */
  private readonly unsent = new Set<Promise<void>>();
  private unlisten: (() => Promise<void>) | null = null;

  /**
   * @param staleMs a scheduler not heard from for this long is gone (it died without saying so):
   *   a few of its heartbeats.
   */
  constructor(
    private readonly notifications: NotificationBus,
    private readonly owner: string,
    private readonly staleMs: number,
  ) {}

  async start(): Promise<void> {
    if (!this.unlisten)
      this.unlisten = await this.notifications.listen(SCHEDULERS_CHANNEL, (payload) => this.heard(payload));
    await this.announce();
  }

  /** Says this scheduler runs threads (at start and at every heartbeat); nothing once stopped. */
  announce(): Promise<void> {
    if (!this.unlisten) return Promise.resolve();
    const sent: Promise<void> = this.notifications
      .notify(SCHEDULERS_CHANNEL, `${HERE}${this.owner}`)
      .finally(() => this.unsent.delete(sent));
    this.unsent.add(sent);
    return sent;
  }

  /**
   * Says this scheduler stopped running threads, and stops listening. The goodbye is sent once every
   * announcement already on its way has been sent (each NOTIFY commits on its own, and listeners get
   * them in commit order): an answer to a newcomer still queued for a pooled connection would
   * otherwise arrive after the goodbye, and the others would count this scheduler alive for
   * `staleMs` more.
   */
  async stop(): Promise<void> {
    const unlisten = this.unlisten;
    if (!unlisten) return;
    this.unlisten = null;
    this.lastHeard.clear();
    await unlisten().catch(() => {});
    await Promise.allSettled([...this.unsent]);
    await this.notifications.notify(SCHEDULERS_CHANNEL, `${GONE}${this.owner}`).catch(() => {});
  }

  /** True when no other scheduler was heard from within `staleMs`. */
  alone(now = performance.now()): boolean {
    for (const [owner, heardAt] of this.lastHeard) {
      if (now - heardAt <= this.staleMs) return false;
      this.lastHeard.delete(owner);
    }
    return true;
  }

  private heard(payload: string): void {
    const owner = payload.slice(1);
    if (!owner || owner === this.owner || !this.unlisten) return;
    if (payload.startsWith(GONE)) {
      this.lastHeard.delete(owner);
      return;
    }
    if (!payload.startsWith(HERE)) return;
    const known = this.lastHeard.has(owner);
    this.lastHeard.set(owner, performance.now());
    // A newcomer learns of this scheduler now rather than at its next heartbeat.
    if (!known) void this.announce().catch(() => {});
  }
}
