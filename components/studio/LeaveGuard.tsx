"use client";
// Asks before an in-app link or the browser's Back/Forward leaves the studio with unsaved changes.
// Leaving is safe either way — the draft stays in this browser and comes back — but the user
// should know the changes are not a saved version yet. Reloads and closing the tab get the
// browser's own prompt (useStudioDraft). Back/Forward cannot be cancelled once it happened, so
// while there are unsaved changes the studio stands on a "sentinel" history entry (same URL) on top
// of its own: Back lands on the studio's entry without leaving, the dialog asks, Stay puts the
// sentinel back and Leave goes one step further back.
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/Button";
import { Dialog, DialogHeader } from "@/components/ui/Dialog";
import { useStudioStore } from "./StudioStoreContext";
import { saveDocument } from "./save-document";

/** The in-app destination of a plain left click on a link, or null when the browser should handle it. */
function leavingLink(event: MouseEvent): string | null {
  if (
    event.defaultPrevented ||
    event.button !== 0 ||
    event.metaKey ||
    event.ctrlKey ||
    event.shiftKey ||
    event.altKey
  ) {
    return null;
  }
  const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
  if (!(link instanceof HTMLAnchorElement) || link.hasAttribute("download")) return null;
  if (link.target && link.target !== "_self") return null;
  const url = new URL(link.href, window.location.href);
  if (url.origin !== window.location.origin) return null;
  if (url.pathname === window.location.pathname && url.search === window.location.search) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Marks the sentinel entry in history.state (Next's own router state is kept beside it). */
const SENTINEL_KEY = "tandemLeaveGuard";

function onSentinel(): boolean {
  const state: unknown = window.history.state;
  return typeof state === "object" && state !== null && SENTINEL_KEY in state;
}

/** Stands on a sentinel entry; no URL, so it keeps this address (Next's router copies its state into it). */
function pushSentinel() {
  if (onSentinel()) return;
  window.history.pushState({ ...(window.history.state ?? {}), [SENTINEL_KEY]: true }, "");
}

/** Where the user is going: an in-app path, or one step back in the browser's history. */
type Destination = string | { back: true };

export function LeaveGuard({ projectId }: { projectId: string }) {
  const store = useStudioStore();
  const router = useRouter();
  const [destination, setDestination] = useState<Destination | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const unsaved = () => {
      const { history, savedDocument } = store.getState();
      return history.present !== savedDocument;
    };
    if (unsaved()) pushSentinel();
    let pendingPush: ReturnType<typeof setTimeout> | undefined;
    const unsubscribe = store.subscribe((state, previous) => {
      const changed =
        state.history.present !== previous.history.present || state.savedDocument !== previous.savedDocument;
      // In a task of its own: the first edit is often the first frame of a drag, and pushState
      // (which clones Next's router state) would lengthen that frame.
      if (changed && state.history.present !== state.savedDocument) {
        clearTimeout(pendingPush);
        pendingPush = setTimeout(pushSentinel, 0);
      }
    });
    const onPopState = () => {
      if (onSentinel()) return;
      // Back (or Forward) took the user off the sentinel onto the studio's own entry.
      if (unsaved()) {
        setDestination({ back: true });
        return;
      }
      // Saved since: nothing to ask, and the sentinel should not cost an extra Back.
      window.history.back();
    };
    window.addEventListener("popstate", onPopState);
    return () => {
      unsubscribe();
      clearTimeout(pendingPush);
      window.removeEventListener("popstate", onPopState);
    };
  }, [store]);

  useEffect(() => {
    // Capturing on window runs before React's own listeners (Next's <Link> navigates in onClick).
    const onClick = (event: MouseEvent) => {
      const { history, savedDocument } = store.getState();
      if (history.present === savedDocument) return;
      const href = leavingLink(event);
      if (!href) return;
      event.preventDefault();
      event.stopPropagation();
      setDestination(href);
    };
    window.addEventListener("click", onClick, true);
    return () => window.removeEventListener("click", onClick, true);
  }, [store]);

  const go = (to: Destination) => {
    if (typeof to === "string") router.push(to);
    else window.history.back();
  };
  const close = () => {
    // Staying after Back: stand on a sentinel again so the next Back asks too.
    if (destination !== null && typeof destination !== "string") pushSentinel();
    setDestination(null);
  };
  const leave = (to: Destination) => {
    setDestination(null);
    go(to);
  };
  const title = "Leave with unsaved changes?";
  return (
    <Dialog open={destination !== null} label={title} onClose={close}>
      <DialogHeader title={title} onClose={close} />
      <div className="flex w-[30rem] max-w-[calc(100vw-2rem)] flex-col gap-3 p-4">
        <p className="text-sm">
          Your changes are not saved as a version yet. They stay in this browser as a draft and come back when
          you open the studio again.
        </p>
        <div className="flex flex-wrap justify-end gap-2">
          <Button onClick={close}>Stay</Button>
          <Button onClick={() => destination && leave(destination)}>Leave</Button>
          <Button
            tone="primary"
            disabled={busy}
            onClick={async () => {
              const to = destination;
              if (!to) return;
              setBusy(true);
              setDestination(null);
              const saved = await saveDocument(store, projectId);
              setBusy(false);
              if (saved) go(to);
              else if (typeof to !== "string") pushSentinel();
            }}
          >
            Save and leave
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
