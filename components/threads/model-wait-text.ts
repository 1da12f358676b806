// The words the transcript shows while a model call waits on its provider (a `model_wait` event):
// "Rate limited by openai at api.openai.com, retrying in 4 s", counting down to "retrying now…".
import type { ModelWait } from "@/lib/live/state";

/** `wait` as of `nowMs` (the browser's clock, ms since the epoch; the event's time is in µs). */
export function modelWaitText(wait: ModelWait, nowMs: number): string {
  const leftMs = wait.at / 1000 + wait.delayMs - nowMs;
  const when = leftMs > 0 ? `retrying in ${Math.ceil(leftMs / 1000)} s` : "retrying now…";
  switch (wait.reason) {
    case "rate_limited":
      return `Rate limited by ${wait.provider}, ${when}`;
    case "unavailable":
      return `${wait.provider} unavailable, ${when}`;
    case "error":
      return `Model ${wait.model} failed, ${when}`;
  }
}
