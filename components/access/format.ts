// Dates on the access pages: "2 Dec 2026, 07:15" in the browser's locale, or "never".
import { type When, whenToDate } from "@/lib/api/access-schemas";

export function formatWhen(value: When, fallback = "—"): string {
  const date = whenToDate(value);
  if (!date) return fallback;
  return date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}
