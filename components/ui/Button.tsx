// Buttons in three tones; every button has a visible label or an aria-label.
import type { ButtonHTMLAttributes } from "react";

type Tone = "primary" | "secondary" | "danger";

const TONE_CLASSES: Record<Tone, string> = {
  primary: "bg-accent text-accent-contrast hover:opacity-90",
  secondary: "border border-border bg-surface hover:bg-surface-muted",
  danger: "border border-border bg-surface text-danger hover:bg-surface-muted",
};

export function Button({
  tone = "secondary",
  className = "",
  type = "button",
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { tone?: Tone }) {
  return (
    <button
      type={type}
      className={`inline-flex h-8 items-center gap-1.5 rounded-md px-3 text-sm font-medium disabled:cursor-not-allowed disabled:opacity-50 ${TONE_CLASSES[tone]} ${className}`}
      {...props}
    />
  );
}
