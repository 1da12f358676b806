// The Tandem mark (two linked nodes, the same drawing as public/logo.svg and app/icon.svg) and the
// wordmark beside it, for the app header.
export function TandemMark({ size = 22 }: { size?: number }) {
  return (
    <svg aria-hidden="true" focusable="false" width={size} height={size} viewBox="0 0 32 32">
      <rect width="32" height="32" rx="8" fill="var(--accent)" />
      <path
        d="M11 21.5C11 14.5 21 17.5 21 10.5"
        fill="none"
        stroke="var(--accent-contrast)"
        strokeWidth="2.4"
        strokeLinecap="round"
      />
      <circle cx="11" cy="21.5" r="4.6" fill="var(--accent-contrast)" />
      <circle
        cx="21"
        cy="10.5"
        r="3.6"
        fill="var(--accent)"
        stroke="var(--accent-contrast)"
        strokeWidth="2.4"
      />
    </svg>
  );
}
