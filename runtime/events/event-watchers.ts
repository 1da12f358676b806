// The roots this process watches live, registered in `event_watchers` so that the commits appending
// events for them (in any process) NOTIFY, and nobody else's do (migration event_watchers,
// docs/runtime.md "Live events"). A root is registered while at least one stream here watches it,
// plus a short grace period (a browser reconnecting does not unregister and register again).
//
// Why nothing is missed: registration takes the root's event lock, the lock every commit of the
// root's events holds while it checks for watchers (with a fresh snapshot). A commit that checked
// before the registration committed also committed before it, so the stream's first read after
// `acquire` resolves finds its events; every later commit sees the row and NOTIFYs.
//
// A row carries an expiry renewed by a heartbeat: the rows of a process that died stop counting
// after WATCH_TTL_SECONDS and are deleted by any other process's next heartbeat. A row that went
// missing anyway (deleted while this process could not renew it) is registered again, and its
// streams are told to re-read (`onRestored`).
import { randomUUID } from "node:crypto";
import type { SqlExecutor } from "@/lib/db/sql-client";
import {
  deleteExpiredEventWatchers,
  deleteWatcherRows,
  registerEventWatcher,
  renewEventWatchers,
  unregisterEventWatcher,
} from "../store/event-watcher-rows";

export const WATCH_TTL_SECONDS = 300;
export const WATCH_HEARTBEAT_MS = 60_000;
/** How long a root stays registered after its last stream ended. */
export const WATCH_RELEASE_GRACE_MS = 5_000;

interface WatchedRoot {
  streams: number;
  /** Resolves once the row is committed (after any earlier removal of it by this process). */
  registered: Promise<void>;
  releaseTimer: ReturnType<typeof setTimeout> | null;
}

export interface EventWatcherOptions {
  heartbeatMs?: number;
  releaseGraceMs?: number;
  /** A root's row had to be registered again: its streams may have missed a NOTIFY. */
  onRestored?: (rootId: string) => void;
  onError?: (error: unknown) => void;
}

export class EventWatchers {
  readonly watcherId = randomUUID();
  private readonly roots = new Map<string, WatchedRoot>();
  /** Deletions in flight, per root: a new registration of the root waits for them. */
  private readonly removals = new Map<string, Promise<void>>();
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private closed = false;

  constructor(
    private readonly db: SqlExecutor,
    private readonly options: EventWatcherOptions = {},
  ) {}

  /** Registers a stream of `rootId`; resolves when commits of the root NOTIFY (read the log after). */
  async acquire(rootId: string): Promise<void> {
    let root = this.roots.get(rootId);
    if (!root) {
      const previousRemoval = this.removals.get(rootId) ?? Promise.resolve();
      root = {
        streams: 0,
        registered: previousRemoval.then(() => this.register(rootId)),
        releaseTimer: null,
      };
      this.roots.set(rootId, root);
      this.startHeartbeat();
    }
    root.streams += 1;
    if (root.releaseTimer) {
      clearTimeout(root.releaseTimer);
      root.releaseTimer = null;
    }
    try {
      await root.registered;
    } catch (error) {
      // Not registered: forget the root so that the next stream tries again.
      root.streams -= 1;
      if (this.roots.get(rootId) === root && root.streams === 0) this.roots.delete(rootId);
      throw error;
    }
  }

  /** A stream of `rootId` ended; the row goes after the grace period unless another stream comes. */
  release(rootId: string): void {
    const root = this.roots.get(rootId);
    if (!root || root.streams === 0) return;
    root.streams -= 1;
    if (root.streams > 0) return;
    root.releaseTimer = setTimeout(() => {
      if (this.roots.get(rootId) !== root || root.streams > 0) return;
      this.roots.delete(rootId);
      this.remove(rootId, root.registered);
    }, this.options.releaseGraceMs ?? WATCH_RELEASE_GRACE_MS);
    root.releaseTimer.unref?.();
  }

  /** The roots registered (or being registered) now. */
  watchedRoots(): string[] {
    return [...this.roots.keys()];
  }

  /** Renews this process's rows, restores any that went missing, deletes expired rows of anyone. */
  async renew(): Promise<void> {
    const roots = this.watchedRoots();
    if (roots.length > 0) {
      const present = new Set(
        await renewEventWatchers(this.db, {
          rootIds: roots,
          watcher: this.watcherId,
          ttlSeconds: WATCH_TTL_SECONDS,
        }),
      );
      for (const rootId of roots) {
        const root = this.roots.get(rootId);
        if (present.has(rootId) || !root) continue;
        // Only a root whose registration finished can be missing for a reason worth restoring.
        const settled = await root.registered.then(
          () => true,
          () => false,
        );
        if (!settled || this.roots.get(rootId) !== root) continue;
        await this.register(rootId);
        this.options.onRestored?.(rootId);
      }
    }
    await deleteExpiredEventWatchers(this.db);
  }

  /** Stops the heartbeat and deletes this process's rows. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    for (const root of this.roots.values()) if (root.releaseTimer) clearTimeout(root.releaseTimer);
    this.roots.clear();
    await Promise.allSettled(this.removals.values());
    await deleteWatcherRows(this.db, this.watcherId);
  }

  private async register(rootId: string): Promise<void> {
    if (this.closed) throw new Error("The live event hub is closed.");
    // The root's event lock (the one appendEvents' commits hold while they check for watchers),
    // held until this statement commits.
    await registerEventWatcher(this.db, { rootId, watcher: this.watcherId, ttlSeconds: WATCH_TTL_SECONDS });
  }

  private remove(rootId: string, registered: Promise<void>): void {
    const previous = this.removals.get(rootId) ?? Promise.resolve();
    const removal = Promise.all([previous, registered.catch(() => undefined)])
      .then(() => unregisterEventWatcher(this.db, { rootId, watcher: this.watcherId }))
      .then(
        () => undefined,
        (error: unknown) => this.options.onError?.(error),
      )
      .finally(() => {
        if (this.removals.get(rootId) === removal) this.removals.delete(rootId);
      });
    this.removals.set(rootId, removal);
  }

  private startHeartbeat(): void {
    if (this.heartbeat || this.closed) return;
    this.heartbeat = setInterval(() => {
      if (this.roots.size === 0) return;
      this.renew().catch((error: unknown) => this.options.onError?.(error));
    }, this.options.heartbeatMs ?? WATCH_HEARTBEAT_MS);
    this.heartbeat.unref?.();
  }
}
