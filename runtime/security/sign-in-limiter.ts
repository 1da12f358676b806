// Repeated failed sign-ins answer 429 (docs/security.md "Sign-in"): at most MAX_FAILURES failures per
// email and MAX_FAILURES_PER_ADDRESS per client address within WINDOW_MS; the lock lifts when the
// oldest failure leaves the window. In memory, per process: behind several app servers an attacker
// gets that many tries per process (put a rate-limiting proxy in front for more).
export const MAX_FAILURES = 5;
export const MAX_FAILURES_PER_ADDRESS = 50;
export const WINDOW_MS = 15 * 60_000;
const MAX_TRACKED = 10_000;

export class SignInLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Seconds until another attempt is allowed, or 0. */
  retryAfterSeconds(email: string, address: string): number {
    const waits = [
      this.wait(`email:${email}`, MAX_FAILURES),
      this.wait(`address:${address}`, MAX_FAILURES_PER_ADDRESS),
    ];
    return Math.max(...waits);
  }

  recordFailure(email: string, address: string): void {
    if (this.failures.size >= MAX_TRACKED) this.sweep();
    for (const key of [`email:${email}`, `address:${address}`]) {
      const list = this.recent(key);
      list.push(this.now());
      this.failures.set(key, list);
    }
  }

  recordSuccess(email: string): void {
    this.failures.delete(`email:${email}`);
  }

  private recent(key: string): number[] {
    const cutoff = this.now() - WINDOW_MS;
    return (this.failures.get(key) ?? []).filter((at) => at > cutoff);
  }

  private wait(key: string, max: number): number {
    const list = this.recent(key);
    if (list.length < max) return 0;
    const oldest = list[list.length - max] ?? this.now();
    return Math.max(1, Math.ceil((oldest + WINDOW_MS - this.now()) / 1000));
  }

  private sweep(): void {
    for (const key of [...this.failures.keys()]) {
      if (this.recent(key).length === 0) this.failures.delete(key);
    }
    if (this.failures.size >= MAX_TRACKED) this.failures.clear();
  }
}
