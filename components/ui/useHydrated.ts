import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/**
 * False in the server's HTML and while React hydrates it, true once the component runs in the
 * browser. A control whose work is in its handlers stays disabled until they are attached: a click
 * before that would be lost (or submit its form natively, reloading the page).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
