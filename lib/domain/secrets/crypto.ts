import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { dataDir, env } from "@/lib/env";
import { DomainError } from "@/lib/errors";

/**
 * Secrets at rest: AES-256-GCM, a fresh 96-bit nonce per value, and the secret's identity (owner, scope
 * type, scope id, name, version) as associated data, so a ciphertext copied to another row (or an older
 * version replayed) fails to decrypt. The stored form is `v1:<base64(nonce ‖ tag ‖ ciphertext)>` for a
 * text value and `f1:<…>` for a file's bytes; the kind is in the associated data too, so changing the
 * prefix fails authentication rather than delivering a file as text (or the reverse).
 *
 * The key: SWITCHBOARD_SECRET_KEY (base64 of 32 bytes, checked by lib/env at start), else the key file
 * `<data dir>/secret.key` created on first use with mode 0600. A key file of any other content is
 * `secret_key_invalid`: there is no fallback to storing values unencrypted.
 */
export const KEY_FILE = "secret.key";
const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const TEXT_PREFIX = "v1:";
const FILE_PREFIX = "f1:";

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

const aad = (id: SecretIdentity, file: boolean) =>
  Buffer.from(
    JSON.stringify([
      file ? "switchboard-secret-file-v1" : "switchboard-secret-v1",
      id.ownerId,
      id.scopeType,
      id.scopeId,
      id.name,
      id.version,
    ]),
  );

/** Encrypt a text value (`string`) or a file's bytes (`Buffer`, kept byte for byte). */
export function encryptValue(id: SecretIdentity, value: string | Buffer, key: Buffer = secretKey()): string {
  const file = Buffer.isBuffer(value);
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, nonce);
  cipher.setAAD(aad(id, file));
  const body = Buffer.concat([file ? cipher.update(value) : cipher.update(value, "utf8"), cipher.final()]);
  return (
    (file ? FILE_PREFIX : TEXT_PREFIX) + Buffer.concat([nonce, cipher.getAuthTag(), body]).toString("base64")
  );
}

/** Whether a stored value is a file (its bytes) rather than text, without decrypting it. */
export const isFileCiphertext = (stored: string) => stored.startsWith(FILE_PREFIX);

/**
 * The value as stored: a `string` for text, a `Buffer` for a file; or `secret_undecryptable` (wrong key,
 * altered ciphertext or prefix, or a ciphertext of another row).
 */
export function decryptValue(
  id: SecretIdentity & { secretId?: number },
  stored: string,
  key: Buffer = secretKey(),
): string | Buffer {
  const fail = () =>
    new DomainError("secret_undecryptable", `Secret ${id.name} could not be decrypted.`, {
      details: { secret_id: id.secretId ?? null, name: id.name },
    });
  const file = isFileCiphertext(stored);
  if (!file && !stored.startsWith(TEXT_PREFIX)) throw fail();
  const raw = Buffer.from(stored.slice(TEXT_PREFIX.length), "base64");
  if (raw.length < NONCE_BYTES + TAG_BYTES) throw fail();
  let bytes: Buffer;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, NONCE_BYTES));
    decipher.setAAD(aad(id, file));
    decipher.setAuthTag(raw.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
    bytes = Buffer.concat([decipher.update(raw.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]);
  } catch {
    throw fail();
  }
  return file ? bytes : bytes.toString("utf8");
}
