// Whether shortcuts should be shown with ⌘ (Apple platforms) or Ctrl.
export function isMacPlatform(): boolean {
  return (
    typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent)
  );
}
