// Password hashing: argon2id through @node-rs/argon2 (prebuilt binaries shipped in npm packages, no
// compiler or download at install). Cost: OWASP's argon2id baseline — 19 MiB of memory, 2 passes,
// 1 lane — about 30 ms per hash on this project's 2-core machines (docs/security.md "Passwords").
import { hash, verify } from "@node-rs/argon2";

/** @node-rs/argon2's Algorithm.Argon2id (a const enum, which isolated modules cannot import). */
const ARGON2ID = 2;

export const PASSWORD_HASH_COST = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: ARGON2ID, ...PASSWORD_HASH_COST });
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;
/**
 * Spends a hash's time on a sign-in for an unknown email, so that the answer's timing does not tell
 * which emails have accounts.
 */
export async function verifyAgainstNothing(password: string): Promise<false> {
  dummy ??= hashPassword("tandem-no-such-user");
  await verifyPassword(await dummy, password);
  return false;
}
