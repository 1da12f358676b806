"use client";
// Asks before an in-app link leaves the studio with unsaved changes (the breadcrumb, the header).
// Leaving is safe either way — the draft stays in this browser and comes back — but the user
// should know the changes are not a saved version yet. Reloads and closing the tab get the
// browser's own prompt (useStudioDraft).
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

export function LeaveGuard({ projectId }: { projectId: string }) {
  const store = useStudioStore();
  const router = useRouter();
  const [destination, setDestination] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

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

  const close = () => setDestination(null);
  const leave = (href: string) => {
    setDestination(null);
    router.push(href);
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
              const href = destination;
              if (!href) return;
              setBusy(true);
              setDestination(null);
              const saved = await saveDocument(store, projectId);
              setBusy(false);
              if (saved) router.push(href);
            }}
          >
            Save and leave
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
