import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { dataDir, env } from "@/lib/env";
import { DomainError } from "@/lib/errors";

/**
 * Secrets at rest: AES-256-GCM, a fresh 96-bit nonce per value, and the secret's identity (owner, scope
 * type, scope id, name, version) as associated data, so a ciphertext copied to another row (or an older
 * version replayed) fails to decrypt. The stored form is `v1:<base64(nonce ‖ tag ‖ ciphertext)>`.
 *
 * The key: SWITCHBOARD_SECRET_KEY (base64 of 32 bytes, checked by lib/env at start), else the key file
 * `<data dir>/secret.key` created on first use with mode 0600. A key file of any other content is
 * `secret_key_invalid`: there is no fallback to storing values unencrypted.
 */
export const KEY_FILE = "secret.key";
const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const PREFIX = "v1:";

export type SecretIdentity = {
  ownerId: number;
  scopeType: string;
  scopeId: number;
  name: string;
  version: number;
};

const g = globalThis as { __switchboardSecretKey?: Buffer };

function decodeKey(text: string, where: string): Buffer {
  const t = text.trim();
  const key = /^[A-Za-z0-9+/]{43}=$/.test(t) ? Buffer.from(t, "base64") : undefined;
  if (!key || key.length !== KEY_BYTES) {
    throw new DomainError("secret_key_invalid", `${where} is not the base64 encoding of exactly 32 bytes.`, {
      details: { where },
    });
  }
  return key;
}

/** The key file's path (docs/secrets.md: back it up beside the database; rotate with `secret rotate-key`). */
export const keyFilePath = () => path.join(dataDir(), KEY_FILE);

/** The encryption key, read (or created) once per process. */
export function secretKey(): Buffer {
  if (g.__switchboardSecretKey) return g.__switchboardSecretKey;
  const fromEnv = env().SWITCHBOARD_SECRET_KEY;
  let key: Buffer;
  if (fromEnv) key = decodeKey(fromEnv, "SWITCHBOARD_SECRET_KEY");
  else {
    const file = keyFilePath();
    let text: string | undefined;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    }
    if (text === undefined) {
      fs.mkdirSync(dataDir(), { recursive: true });
      const fresh = randomBytes(KEY_BYTES).toString("base64");
      try {
        fs.writeFileSync(file, `${fresh}\n`, { mode: 0o600, flag: "wx" });
        text = fresh;
      } catch {
        text = fs.readFileSync(file, "utf8"); // another process created it first
      }
    }
    key = decodeKey(text, `the key file ${file}`);
  }
  g.__switchboardSecretKey = key;
  return key;
}

/** Forget the cached key (tests that switch keys). */
export function forgetSecretKey(): void {
  g.__switchboardSecretKey = undefined;
}

const aad = (id: SecretIdentity) =>
  Buffer.from(
    JSON.stringify(["switchboard-secret-v1", id.ownerId, id.scopeType, id.scopeId, id.name, id.version]),
  );

export function encryptValue(id: SecretIdentity, value: string, key: Buffer = secretKey()): string {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, nonce);
  cipher.setAAD(aad(id));
  const body = Buffer.concat([cipher.update(value, "utf8"), cipher.final()]);
  return PREFIX + Buffer.concat([nonce, cipher.getAuthTag(), body]).toString("base64");
}

/** The value, or `secret_undecryptable` (wrong key, altered ciphertext, or a ciphertext of another row). */
export function decryptValue(
  id: SecretIdentity & { secretId?: number },
  stored: string,
  key: Buffer = secretKey(),
): string {
  const fail = () =>
    new DomainError("secret_undecryptable", `Secret ${id.name} could not be decrypted.`, {
      details: { secret_id: id.secretId ?? null, name: id.name },
    });
  if (!stored.startsWith(PREFIX)) throw fail();
  const raw = Buffer.from(stored.slice(PREFIX.length), "base64");
  if (raw.length < NONCE_BYTES + TAG_BYTES) throw fail();
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, NONCE_BYTES));
    decipher.setAAD(aad(id));
    decipher.setAuthTag(raw.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]).toString(
      "utf8",
    );
  } catch {
    throw fail();
  }
}
