// The `:version` path segment and `?against=` parameter: positive integers, anything else is a 400.
import { z } from "zod";

export const VersionNumber = z.coerce
  .number({ error: "must be a version number" })
  .int({ error: "must be an integer version number" })
  .min(1, { error: "must be a version number ≥ 1" });

export function parseVersion(raw: string, field = "version"): number {
  const parsed = VersionNumber.safeParse(raw.trim() === "" ? Number.NaN : raw);
  if (parsed.success) return parsed.data;
  throw new z.ZodError(parsed.error.issues.map((issue) => ({ ...issue, path: [field] })));
}
