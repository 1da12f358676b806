// A model call's waits on its provider (`model_wait` telemetry) are appended to the event log as
// they happen, outside the step's transactions, so the live view shows "Rate limited by …, retrying
// in N s" during the wait rather than after it. The other telemetry of the call commits with its
// reply as before. A write that fails is only logged: the wait goes on.
import type { ModelTelemetry } from "../../models/types";
import { appendEvents } from "../../store/event-log";
import { telemetryEvent } from "../../store/thread-events";
import type { StepContext } from "./types";

/** An onTelemetry that announces waits at once and hands every other event to `keep`. */
export function announcingWaits(
  ctx: Pick<StepContext, "db">,
  thread: { id: string; root_id: string },
  keep: (event: ModelTelemetry) => void,
): (event: ModelTelemetry) => void {
  return (event) => {
    if (event.type !== "model_wait") {
      keep(event);
      return;
    }
    appendEvents(ctx.db, [telemetryEvent(thread, event)]).catch((error: unknown) =>
      console.error(
        `[tandem] announcing a model wait of thread ${thread.id} failed:`,
        error instanceof Error ? error.message : error,
      ),
    );
  };
}
