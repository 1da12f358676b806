// Buttons in three tones; every button has a visible label or an aria-label.
import type { ButtonHTMLAttributes, Ref } from "react";

type Tone = "primary" | "secondary" | "danger";
type Size = "normal" | "compact";

const SIZE_CLASSES: Record<Size, string> = {
  normal: "h-8 px-3 text-sm",
  compact: "h-7 px-2 text-xs",
};

const TONE_CLASSES: Record<Tone, string> = {
  primary: "bg-accent text-accent-contrast hover:opacity-90",
  secondary: "border border-border bg-surface hover:bg-surface-muted",
  danger: "border border-border bg-surface text-danger hover:bg-surface-muted",
};

/** The classes of a button, for a link that looks like one (a page's main action). */
export function buttonClasses(tone: Tone = "secondary", size: Size = "normal"): string {
  return `inline-flex items-center gap-1.5 rounded-md font-medium ${SIZE_CLASSES[size]} ${TONE_CLASSES[tone]}`;
}

export function Button({
  tone = "secondary",
  size = "normal",
  className = "",
  type = "button",
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { tone?: Tone; size?: Size; ref?: Ref<HTMLButtonElement> }) {
  return (
    <button
      type={type}
      className={`inline-flex items-center gap-1.5 rounded-md font-medium ${SIZE_CLASSES[size]} disabled:cursor-not-allowed disabled:opacity-50 ${TONE_CLASSES[tone]} ${className}`}
      {...props}
    />
  );
}
