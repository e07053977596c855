import fs from "node:fs";
import { read } from "@/lib/db";
import { env } from "@/lib/env";
import { DomainError } from "@/lib/errors";
import { decryptValue, forgetSecretKey, keyFilePath, secretKey } from "./crypto";

/** How many stored values the start check tries to decrypt (the newest ones). */
const PROBE = 50;

export type KeyCheck = {
  source: "env" | "file";
  /** The key file, when it is the source. */
  file: string | null;
  /** The key file was created by this check (no secret was stored yet). */
  created: boolean;
  /** Values tried, and those the key could not decrypt (tampered or moved rows; named, never shown). */
  probed: number;
  undecryptable: { secret_id: number; name: string }[];
};

/**
 * The secret key, checked before the server takes requests (docs/secrets.md, "The key at start"):
 * - SWITCHBOARD_SECRET_KEY: base64 of exactly 32 bytes (lib/env refuses anything else earlier).
 * - The key file: a regular file of the server's user with mode 0600 (or stricter), readable, base64 of
 *   exactly 32 bytes. Missing: created, unless secrets are already stored — then it was lost, and a new
 *   key would silently orphan every value, so the check refuses instead.
 * - The key must open the stored values: the newest PROBE are decrypted. None opens: the key is not the one
 *   they were encrypted with — refused (starting would fail every launch that needs a secret and mix two
 *   keys in one table). Some do not: those rows were altered or moved — reported, the server starts (each
 *   fails alone at its launch with `secret_undecryptable`; the owner replaces it).
 * Every refusal is `secret_key_invalid` with `details.reason` and a message naming the fix.
 */
export async function checkSecretKey(): Promise<KeyCheck> {
  forgetSecretKey();
  const fromEnv = env().SWITCHBOARD_SECRET_KEY !== undefined;
  const file = fromEnv ? null : keyFilePath();
  const rows = await read(({ db }) =>
    db.secret.findMany({
      where: { ciphertext: { not: null } },
      orderBy: { id: "desc" },
      take: PROBE,
    }),
  );
  let created = false;
  if (file && !fs.existsSync(file)) {
    if (rows.length > 0) {
      throw new DomainError(
        "secret_key_invalid",
        `the key file ${file} is missing, but secrets are stored encrypted with a key: restore the key file from your backup (or set SWITCHBOARD_SECRET_KEY); a new key would open none of them`,
        { details: { reason: "missing", file } },
      );
    }
    created = true;
  }
  const key = secretKey(); // creates the file when allowed; throws on mode, owner, length
  const undecryptable: KeyCheck["undecryptable"] = [];
  for (const r of rows) {
    const id = {
      ownerId: r.ownerId,
      scopeType: r.scopeType,
      scopeId: r.scopeId,
      name: r.name,
      version: r.version,
    };
    try {
      decryptValue({ ...id, secretId: r.id }, r.ciphertext ?? "", key);
    } catch {
      undecryptable.push({ secret_id: r.id, name: r.name });
    }
  }
  if (rows.length > 0 && undecryptable.length === rows.length) {
    throw new DomainError(
      "secret_key_invalid",
      `the secret key (${fromEnv ? "SWITCHBOARD_SECRET_KEY" : `key file ${file}`}) decrypts none of the ${rows.length} newest stored secrets: it is not the key they were encrypted with. Restore the right key; if it is lost, revoke the secrets (switchboard secret revoke-all) and supply them again`,
      { details: { reason: "wrong_key", probed: rows.length } },
    );
  }
  return { source: fromEnv ? "env" : "file", file, created, probed: rows.length, undecryptable };
}

/**
 * The start check as a server runs it (`npm start`: server/main.ts; `next dev`: instrumentation.ts): the
 * created key and rows that do not decrypt are reported on stderr; a refused key stops the process with its
 * code and the fix.
 */
export async function checkSecretKeyAtStart(): Promise<void> {
  try {
    const k = await checkSecretKey();
    if (k.created)
      process.stderr.write(`switchboard: created the secret key ${k.file} (mode 0600): back it up\n`);
    if (k.undecryptable.length > 0)
      process.stderr.write(
        `switchboard: warning: ${k.undecryptable.length} of ${k.probed} stored secrets do not decrypt with this key (altered or moved rows; they fail at launch until replaced): ${k.undecryptable.map((s) => `#${s.secret_id} ${s.name}`).join(", ")}\n`,
      );
  } catch (e) {
    if (!(e instanceof DomainError)) throw e;
    process.stderr.write(`switchboard: cannot start: ${e.code}: ${e.message}\n`);
    process.exit(1);
  }
}
