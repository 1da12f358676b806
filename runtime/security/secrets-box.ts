// Credentials at rest: AES-256-GCM under TANDEM_SECRETS_KEY (docs/security.md "Credentials"). The
// key is 32 bytes given as 64 hex digits or base64; any other text is stretched with SHA-256 (so a
// long passphrase works too). Each sealed value records which key sealed it (the first 8 hex digits
// of the key's SHA-256), and TANDEM_SECRETS_KEY_PREVIOUS (comma-separated) still opens values sealed
// under older keys: rotation is "set the new key, keep the old one as previous, re-save or let reads
// re-seal, then drop the old one".
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { PreconditionFailedError } from "../errors";

type Environment = Record<string, string | undefined>;

interface SecretsKey {
  id: string;
  key: Buffer;
}

export function parseSecretsKey(raw: string): SecretsKey {
  const text = raw.trim();
  let key: Buffer;
  if (/^[0-9a-fA-F]{64}$/.test(text)) key = Buffer.from(text, "hex");
  else {
    const decoded = Buffer.from(text, "base64");
    key =
      decoded.length === 32 && /^[A-Za-z0-9+/_-]+=*$/.test(text)
        ? decoded
        : createHash("sha256").update(text, "utf8").digest();
  }
  return { id: createHash("sha256").update(key).digest("hex").slice(0, 8), key };
}

export function secretsKeys(env: Environment = process.env): { current?: SecretsKey; all: SecretsKey[] } {
  const current = env.TANDEM_SECRETS_KEY?.trim() ? parseSecretsKey(env.TANDEM_SECRETS_KEY) : undefined;
  const previous = (env.TANDEM_SECRETS_KEY_PREVIOUS ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)
    .map(parseSecretsKey);
  return { ...(current ? { current } : {}), all: [...(current ? [current] : []), ...previous] };
}

function missingKey(): PreconditionFailedError {
  return new PreconditionFailedError(
    "Credentials are stored encrypted: set TANDEM_SECRETS_KEY on the server (32 random bytes as 64 hex digits, e.g. `openssl rand -hex 32`) and restart it.",
    {},
    "secrets_key_missing",
  );
}

export function seal(value: string, env: Environment = process.env): { sealed: string; keyId: string } {
  const { current } = secretsKeys(env);
  if (!current) throw missingKey();
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", current.key, iv);
  const body = Buffer.concat([cipher.update(value, "utf8"), cipher.final()]);
  return { sealed: Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url"), keyId: current.id };
}

export function open(sealed: string, keyId: string, env: Environment = process.env): string {
  const { all } = secretsKeys(env);
  if (all.length === 0) throw missingKey();
  const key = all.find((candidate) => candidate.id === keyId);
  if (!key)
    throw new PreconditionFailedError(
      `A credential was sealed under a secrets key this server does not have (key id ${keyId}): put that key in TANDEM_SECRETS_KEY_PREVIOUS.`,
      {},
      "secrets_key_unknown",
    );
  const bytes = Buffer.from(sealed, "base64url");
  const decipher = createDecipheriv("aes-256-gcm", key.key, bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8");
}
