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
 * `<data dir>/secret.key` created at the server's start (key-check.ts) or first use with mode 0600; it
 * must be the process user's own file, closed to group and others. A key file of any other content is
 * `secret_key_invalid`: there is no fallback to storing values unencrypted.
 */
export const KEY_FILE = "secret.key";
const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const TEXT_PREFIX = "v1:";
const FILE_PREFIX = "f1:";
const PREFIX_LENGTH = 3; // both

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
      details: { where, reason: "wrong_length" },
    });
  }
  return key;
}

const keyInvalid = (message: string, reason: string, file?: string) =>
  new DomainError("secret_key_invalid", message, { details: { reason, ...(file ? { file } : {}) } });

/**
 * The key file must be a regular file, owned by the user the process runs as, and closed to group and
 * others (mode 0600 or stricter), as ssh treats a private key: a key anyone on the host can read protects
 * nothing. Throws `secret_key_invalid` naming the problem; ENOENT passes through (the file is created).
 */
function checkKeyFileAccess(file: string): void {
  const st = fs.statSync(file);
  if (!st.isFile()) throw keyInvalid(`the key file ${file} is not a regular file`, "not_a_file", file);
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid)
    throw keyInvalid(
      `the key file ${file} is owned by uid ${st.uid}, not by the server's uid ${uid}: chown it`,
      "wrong_owner",
      file,
    );
  if ((st.mode & 0o077) !== 0)
    throw keyInvalid(
      `the key file ${file} has mode 0${(st.mode & 0o777).toString(8)}: others can read it; chmod 600 it`,
      "mode_too_open",
      file,
    );
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
      checkKeyFileAccess(file);
      text = fs.readFileSync(file, "utf8");
    } catch (e) {
      if (e instanceof DomainError) throw e;
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== "ENOENT")
        throw keyInvalid(`the key file ${file} cannot be read (${code ?? String(e)})`, "unreadable", file);
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
  const raw = Buffer.from(stored.slice(PREFIX_LENGTH), "base64");
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
