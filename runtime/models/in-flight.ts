// Model calls in flight in this process, per provider endpoint (a provider, base URL and key): the
// backpressure /api/health reports, and the gate every attempt passes. The gate admits calls first
// come first served while fewer than the endpoint's limit are in flight. The limit starts at the
// configured concurrency (TANDEM_PROVIDER_CONCURRENCY, TANDEM_PROVIDER_CONCURRENCY_<PROVIDER>) and
// adapts to rate limits: each HTTP 429 halves it (once per round of calls) and pauses admissions of
// calls to that model for the wait the provider named, each success raises it by 1/limit (additive increase,
// multiplicative decrease), so a burst of threads queues instead of stampeding. Repeated outages
// (5xx, no connection) of one model at the endpoint open that model's circuit breaker for a while:
// its callers then go to a fallback or wait. A call counts from its request to its answer or error (each attempt once; the
// wait between retries is not a call in flight, nor is the wait at the gate: that is `queued`).
import { providerConcurrency } from "./provider-limits";

/** One provider endpoint: calls to the same provider, base URL and key share a gate. */
export interface ProviderTarget {
  /** The provider's name (openai, anthropic, openai-compatible, scripted). */
  provider: string;
  /** What tells endpoints apart (never shown: it may be derived from a key). */
  identity: string;
  /** The provider and its base URL's host, for people (no credentials). */
  label: string;
}

/** When a provider counts as unavailable (TANDEM_PROVIDER_BREAKER_FAILURES, TANDEM_PROVIDER_BREAKER_MS). */
export interface BreakerSettings {
  /** Outage failures in a row (5xx, 408, no connection) that open the breaker. */
  failures: number;
  /** How long it stays open before one probe call may go through. */
  openMs: number;
}

export const DEFAULT_BREAKER: BreakerSettings = { failures: 5, openMs: 30_000 };

/** How an attempt ended, for the gate's limit and breaker. */
export type CallOutcome = "ok" | "rate_limited" | "unavailable" | "other";

/** The longest a 429 pauses a whole endpoint, whatever the provider asked. */
const MAX_PAUSE_MS = 60_000;
/** While one probe tests a half-open breaker, other callers look again after this long. */
const PROBE_WAIT_MS = 1000;
/** Each success while the pace holds calls back raises it by this share per current call/s (about 3 % a second). */
const PACE_STEP = 0.03;
/** A pace with no 429 for this long is dropped (calls go as fast as the limit lets them). */
const PACE_FORGET_MS = 60_000;
/** A probe not reported back after this long no longer holds the others. */
const PROBE_STALE_MS = 60_000;

/** One model's circuit breaker at an endpoint. */
interface Breaker {
  outagesInRow: number;
  openUntil: number;
  /** When the probe of a half-open breaker went out (0: none out). */
  probingSince: number;
}

class EndpointGate {
  inFlight = 0;
  /** Calls waiting to be admitted, in arrival order, with the model each is for. */
  readonly queue: Array<{ model: string; admit: () => void }> = [];
  /** The configured concurrency, as the latest call read it. */
  maxLimit = Number.POSITIVE_INFINITY;
  /** The adaptive limit (fractional: successes raise it by 1/limit). */
  limit = Number.POSITIVE_INFINITY;
  /** Per provider model id: when the wait a 429 named is over (rate limits are per model). */
  readonly pausedUntil = new Map<string, number>();
  lastDecreaseAt = Number.NEGATIVE_INFINITY;
  /**
   * The pace: calls admitted per second (unbounded until a 429). A 429 lowers it to 90 % of the calls
   * that succeeded in the last second (what the provider let through), or to half the calls in flight
   * when none did yet; while it holds calls back, each success raises it a little (about 3 % a
   * second); a minute without a 429 drops it.
   */
  pace = Number.POSITIVE_INFINITY;
  nextAdmitAt = 0;
  lastRateLimitAt = 0;
  /** When the calls that succeeded in about the last second ended. */
  private readonly recentSuccesses: number[] = [];
  rateLimited = 0;
  private pauseTimer: NodeJS.Timeout | undefined;
  /** The circuit breakers, per provider model id (one model may be overloaded, another fine). */
  readonly breakers = new Map<string, Breaker>();

  constructor(
    readonly provider: string,
    readonly label: string,
  ) {}

  /**
   * Takes the configured concurrency as a call read it. A limit not lowered by 429s follows the
   * setting both ways (a raised TANDEM_PROVIDER_CONCURRENCY applies at once); a lowered one keeps
   * climbing back by itself and never exceeds the setting.
   */
  setMaxLimit(max: number): void {
    if (max === this.maxLimit) return;
    const atTheSetting = !Number.isFinite(this.limit) || this.limit >= this.maxLimit;
    this.limit = atTheSetting ? max : Math.min(this.limit, max);
    if (this.limit < 1) this.limit = 1;
    this.maxLimit = max;
  }

  /** Whole calls the limit allows now. */
  get allowed(): number {
    return Math.max(1, Math.floor(this.limit));
  }

  pausedFor(model: string, now: number): number {
    const until = this.pausedUntil.get(model);
    if (until === undefined) return 0;
    if (until > now) return until - now;
    this.pausedUntil.delete(model);
    return 0;
  }

  /** The latest end of any pause now (0: none). */
  pauseEnd(now: number): number {
    let end = 0;
    for (const model of [...this.pausedUntil.keys()])
      if (this.pausedFor(model, now) > 0) end = Math.max(end, this.pausedUntil.get(model)!);
    return end;
  }

  canAdmit(model: string, now: number): boolean {
    return this.inFlight < this.allowed && now >= this.nextAdmitAt && this.pausedFor(model, now) === 0;
  }

  /** Counts an admitted call against the pace. */
  paced(now: number): void {
    if (Number.isFinite(this.pace)) this.nextAdmitAt = Math.max(now, this.nextAdmitAt) + 1000 / this.pace;
  }

  private successesInLastSecond(now: number): number {
    while (this.recentSuccesses.length > 0 && this.recentSuccesses[0]! <= now - 1000)
      this.recentSuccesses.shift();
    return this.recentSuccesses.length;
  }

  /** Admits waiting calls in order while under the limit (a paused model's calls keep their place). */
  admitQueued(now: number = Date.now()): void {
    let soonest = Number.POSITIVE_INFINITY;
    for (let index = 0; index < this.queue.length && this.inFlight < this.allowed; ) {
      if (now < this.nextAdmitAt) {
        soonest = Math.min(soonest, this.nextAdmitAt - now);
        break;
      }
      const waiting = this.queue[index]!;
      const paused = this.pausedFor(waiting.model, now);
      if (paused > 0) {
        soonest = Math.min(soonest, paused);
        index++;
        continue;
      }
      this.queue.splice(index, 1);
      waiting.admit();
    }
    for (const waiting of this.queue) {
      const paused = this.pausedFor(waiting.model, now);
      if (paused > 0) soonest = Math.min(soonest, paused);
    }
    if (Number.isFinite(soonest) && this.pauseTimer === undefined) {
      this.pauseTimer = setTimeout(() => {
        this.pauseTimer = undefined;
        this.admitQueued();
      }, soonest);
      this.pauseTimer.unref?.();
    }
  }

  onOutcome(
    model: string,
    outcome: CallOutcome,
    startedAt: number,
    now: number,
    waitMs: number | undefined,
    breaker: BreakerSettings,
  ): void {
    const state = this.breakers.get(model);
    if (state) state.probingSince = 0;
    if (outcome === "ok") {
      if (this.limit < this.maxLimit) this.limit = Math.min(this.maxLimit, this.limit + 1 / this.allowed);
      this.recentSuccesses.push(now);
      this.successesInLastSecond(now);
      // Raised only while it holds calls back (a queue waits): a pace nobody reaches learns nothing.
      if (Number.isFinite(this.pace) && this.queue.length > 0) this.pace *= 1 + PACE_STEP / this.pace;
      else if (Number.isFinite(this.pace) && now - this.lastRateLimitAt > PACE_FORGET_MS)
        this.pace = Number.POSITIVE_INFINITY;
      this.breakers.delete(model);
      return;
    }
    if (outcome === "rate_limited") {
      this.rateLimited++;
      this.lastRateLimitAt = now;
      // Once per round: the calls already in flight when the limit dropped do not drop it again.
      if (startedAt > this.lastDecreaseAt) {
        this.limit = Math.max(1, Math.min(this.limit, this.inFlight + 1) / 2);
        this.lastDecreaseAt = now;
      }
      const letThrough = this.successesInLastSecond(now);
      // Before any call came back fine (a burst refused at once), half the calls in flight.
      const allowedPace = letThrough > 0 ? 0.9 * letThrough : (this.inFlight + 1) / 2;
      this.pace = Math.min(this.pace, Math.max(1, allowedPace));
      if (waitMs !== undefined)
        this.pausedUntil.set(
          model,
          Math.max(this.pausedUntil.get(model) ?? 0, now + Math.min(waitMs, MAX_PAUSE_MS)),
        );
      return;
    }
    if (outcome === "unavailable") {
      const failing = state ?? { outagesInRow: 0, openUntil: 0, probingSince: 0 };
      this.breakers.set(model, failing);
      failing.outagesInRow++;
      if (failing.outagesInRow >= breaker.failures) failing.openUntil = now + breaker.openMs;
    }
  }

  /** 0 when a call may go out now (taking the probe of a half-open breaker), else ms to wait. */
  unavailableForMs(model: string, now: number, breaker: BreakerSettings): number {
    const state = this.breakers.get(model);
    if (!state || state.outagesInRow < breaker.failures) return 0;
    if (now < state.openUntil) return state.openUntil - now;
    // A probe whose caller gave up (aborted before its call) stops counting after a while.
    if (state.probingSince > 0 && now - state.probingSince < PROBE_STALE_MS) return PROBE_WAIT_MS;
    state.probingSince = now;
    return 0;
  }

  /** The latest time any model's open breaker closes (0: none open). */
  openEnd(now: number): number {
    let end = 0;
    for (const state of this.breakers.values())
      if (state.openUntil > now) end = Math.max(end, state.openUntil);
    return end;
  }
}

const gates = new Map<string, EndpointGate>();

function gateFor(target: ProviderTarget | string): EndpointGate {
  const resolved =
    typeof target === "string" ? { provider: target, identity: target, label: target } : target;
  let gate = gates.get(resolved.identity);
  if (!gate) {
    gate = new EndpointGate(resolved.provider, resolved.label);
    gates.set(resolved.identity, gate);
  }
  return gate;
}

/** One admitted call: report how it ended with `release` (a second call is a no-op). */
export interface ModelCallTicket {
  release(outcome?: CallOutcome, waitMs?: number, breaker?: BreakerSettings): void;
}

function admit(gate: EndpointGate, model: string): ModelCallTicket {
  gate.inFlight++;
  gate.paced(Date.now());
  const startedAt = Date.now();
  let released = false;
  return {
    release: (outcome = "other", waitMs, breaker = DEFAULT_BREAKER) => {
      if (released) return;
      released = true;
      gate.inFlight--;
      const now = Date.now();
      gate.onOutcome(model, outcome, startedAt, now, waitMs, breaker);
      gate.admitQueued(now);
    },
  };
}

/** Counts one call to `provider` until the returned release is called, past any limit (tests, tools). */
export function beginModelCall(provider: string): () => void {
  const ticket = admit(gateFor(provider), "");
  return () => ticket.release();
}

/**
 * Waits until the endpoint admits a call to `model` (the provider's model id; under the endpoint's
 * limit, the model not paused by a 429), then counts it. Rejects with the signal's reason, leaving
 * the queue, when it aborts meanwhile.
 */
export function enterModelCall(
  target: ProviderTarget | string,
  signal?: AbortSignal,
  env: Record<string, string | undefined> = process.env,
  model = "",
): Promise<ModelCallTicket> {
  const gate = gateFor(target);
  gate.setMaxLimit(providerConcurrency(gate.provider, env));
  if (signal?.aborted) return Promise.reject(signal.reason);
  if (gate.queue.length === 0 && gate.canAdmit(model, Date.now())) return Promise.resolve(admit(gate, model));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      const at = gate.queue.indexOf(waiting);
      if (at >= 0) gate.queue.splice(at, 1);
      reject(signal?.reason);
    };
    const waiting = {
      model,
      admit: () => {
        signal?.removeEventListener("abort", onAbort);
        resolve(admit(gate, model));
      },
    };
    gate.queue.push(waiting);
    signal?.addEventListener("abort", onAbort, { once: true });
    gate.admitQueued();
  });
}

/**
 * 0 when the endpoint's circuit breaker lets a call out now, else how long until it may be tried
 * (the breaker is open after repeated outages; half-open, one probe goes out at a time).
 */
export function providerUnavailableForMs(
  target: ProviderTarget,
  model: string,
  breaker: BreakerSettings = DEFAULT_BREAKER,
  now: number = Date.now(),
): number {
  return gateFor(target).unavailableForMs(model, now, breaker);
}

/** How long calls to `model` at the endpoint are still paused by a 429 (0: not paused). */
export function providerPausedForMs(target: ProviderTarget, model: string, now: number = Date.now()): number {
  return gateFor(target).pausedFor(model, now);
}

/** One endpoint as GET /api/health shows it. */
export interface ProviderEndpointLoad {
  provider: string;
  label: string;
  in_flight: number;
  queued: number;
  /** The adaptive concurrency limit now, and the configured one it returns to. */
  limit: number;
  max_limit: number;
  /** HTTP 429s seen since the process started. */
  rate_limited: number;
  /** Calls admitted per second at most, learnt from 429s (null: no pace yet). */
  pace_per_second: number | null;
  /** `paused` after a 429 (admissions wait), `unavailable` while the breaker is open. */
  state: "ok" | "paused" | "unavailable";
  /** For `paused` and `unavailable`: ms until calls go out again. */
  retry_in_ms: number | null;
}

export interface ModelCallsInFlight {
  total: number;
  byProvider: Record<string, number>;
  /** Calls waiting at their endpoint's gate, per provider (providers with none omitted). */
  queuedByProvider: Record<string, number>;
  /** Endpoints with calls, a queue, a lowered limit or an open breaker. */
  endpoints: ProviderEndpointLoad[];
}

function addTo(record: Record<string, number>, key: string, count: number): void {
  if (count > 0) record[key] = (record[key] ?? 0) + count;
}

function sortedRecord(record: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(record).sort(([left], [right]) => left.localeCompare(right)));
}

export function modelCallsInFlight(now: number = Date.now()): ModelCallsInFlight {
  const byProvider: Record<string, number> = {};
  const queuedByProvider: Record<string, number> = {};
  const endpoints: ProviderEndpointLoad[] = [];
  let total = 0;
  for (const gate of gates.values()) {
    total += gate.inFlight;
    addTo(byProvider, gate.provider, gate.inFlight);
    addTo(queuedByProvider, gate.provider, gate.queue.length);
    const openEnd = gate.openEnd(now);
    const open = openEnd > now;
    const pauseEnd = gate.pauseEnd(now);
    const paused = pauseEnd > now;
    const lowered = Number.isFinite(gate.maxLimit) && gate.limit < gate.maxLimit;
    if (gate.inFlight === 0 && gate.queue.length === 0 && !open && !paused && !lowered) continue;
    endpoints.push({
      provider: gate.provider,
      label: gate.label,
      in_flight: gate.inFlight,
      queued: gate.queue.length,
      limit: gate.allowed,
      max_limit: Number.isFinite(gate.maxLimit) ? gate.maxLimit : gate.allowed,
      rate_limited: gate.rateLimited,
      pace_per_second: Number.isFinite(gate.pace) ? Math.round(gate.pace * 10) / 10 : null,
      state: open ? "unavailable" : paused ? "paused" : "ok",
      retry_in_ms: open ? openEnd - now : paused ? pauseEnd - now : null,
    });
  }
  endpoints.sort((left, right) => left.label.localeCompare(right.label));
  return {
    total,
    byProvider: sortedRecord(byProvider),
    queuedByProvider: sortedRecord(queuedByProvider),
    endpoints,
  };
}

/** Forgets every endpoint's state (tests that need a fresh process view). */
export function resetProviderGates(): void {
  gates.clear();
}
