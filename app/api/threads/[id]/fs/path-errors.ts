// Maps an invalid thread-filesystem path to a 400 with the reason.
import { InvalidInputError } from "@/runtime/errors";

export function asThreadPathError(error: unknown): never {
  if (error instanceof Error && (error as { code?: string }).code === "invalid_path") {
    throw new InvalidInputError(error.message, { field: "path" }, "invalid_path");
  }
  throw error;
}
