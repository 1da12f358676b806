import { describe, expect, it } from "vitest";
import { open, parseSecretsKey, seal } from "./secrets-box";

const KEY_A = "a".repeat(64);
const KEY_B = Buffer.alloc(32, 7).toString("base64");

describe("credentials sealed with AES-256-GCM", () => {
  it("round-trips, with a fresh IV each time and no plaintext in the sealed form", () => {
    const env = { TANDEM_SECRETS_KEY: KEY_A };
    const first = seal("sk-live-123", env);
    const second = seal("sk-live-123", env);
    expect(first.sealed).not.toBe(second.sealed);
    expect(Buffer.from(first.sealed, "base64url").toString("latin1")).not.toContain("sk-live");
    expect(open(first.sealed, first.keyId, env)).toBe("sk-live-123");
  });

  it("refuses a tampered value and an unknown key, and needs TANDEM_SECRETS_KEY to seal", () => {
    const env = { TANDEM_SECRETS_KEY: KEY_A };
    const { sealed, keyId } = seal("value", env);
    const bytes = Buffer.from(sealed, "base64url");
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 1;
    expect(() => open(bytes.toString("base64url"), keyId, env)).toThrow();
    expect(() => open(sealed, keyId, { TANDEM_SECRETS_KEY: KEY_B })).toThrow(/TANDEM_SECRETS_KEY_PREVIOUS/);
    expect(() => seal("value", {})).toThrow(/TANDEM_SECRETS_KEY/);
  });

  it("opens values sealed under a previous key after rotation", () => {
    const old = seal("value", { TANDEM_SECRETS_KEY: KEY_A });
    const rotated = { TANDEM_SECRETS_KEY: KEY_B, TANDEM_SECRETS_KEY_PREVIOUS: KEY_A };
    expect(open(old.sealed, old.keyId, rotated)).toBe("value");
    expect(seal("value", rotated).keyId).toBe(parseSecretsKey(KEY_B).id);
  });

  it("reads hex and base64 keys as 32 bytes and stretches a passphrase", () => {
    expect(parseSecretsKey(KEY_A).key).toEqual(Buffer.from(KEY_A, "hex"));
    expect(parseSecretsKey(KEY_B).key).toEqual(Buffer.alloc(32, 7));
    expect(parseSecretsKey("correct horse battery staple").key).toHaveLength(32);
  });
});
