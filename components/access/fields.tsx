// Labelled inputs and the error line shared by the account forms (setup, sign-in, users, members).
import type { InputHTMLAttributes, ReactNode } from "react";

export const INPUT_CLASSES =
  "h-8 rounded-md border border-border bg-surface px-2 outline-none focus:border-accent disabled:opacity-60";

export function TextField({
  label,
  hint,
  ...props
}: InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: ReactNode }) {
  return (
    <label className="flex flex-col gap-1 text-sm">
      <span className="font-medium">{label}</span>
      <input className={INPUT_CLASSES} {...props} />
      {hint ? <span className="text-xs text-muted">{hint}</span> : null}
    </label>
  );
}

export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" className="rounded-md border border-danger/40 bg-danger/5 px-3 py-2 text-sm text-danger">
      {message}
    </p>
  );
}

export function describeAccessError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
