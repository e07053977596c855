import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { write } from "@/lib/db";
import { reencryptChannelSecrets } from "@/lib/domain/notifications/channels";
import { env } from "@/lib/env";
import { decryptValue, encryptValue, forgetSecretKey, keyFilePath, secretKey } from "./crypto";

/**
 * Key rotation: every stored value is decrypted with the current key and encrypted with a new one (fresh
 * nonces, same identity) in one transaction: all rows move, or none. With the key file, the new key is
 * first written beside it (`secret.key.new`, mode 0600), then the rows, then the file renamed over the old
 * one: a crash between the commit and the rename leaves the right key in `secret.key.new` (docs/secrets.md).
 * With SWITCHBOARD_SECRET_KEY the caller gives the new key and sets the variable itself. Running servers
 * keep the old key in memory: restart them after a rotation.
 */
export async function rotateSecretKey(newKeyBase64?: string): Promise<{ rotated: number }> {
  const fromEnv = env().SWITCHBOARD_SECRET_KEY !== undefined;
  const text = newKeyBase64?.trim() ?? randomBytes(32).toString("base64");
  if (!/^[A-Za-z0-9+/]{43}=$/.test(text))
    throw new Error("the new key must be the base64 encoding of 32 bytes");
  const next = Buffer.from(text, "base64");
  const current = secretKey();
  const pending = `${keyFilePath()}.new`;
  if (!fromEnv) fs.writeFileSync(pending, `${text}\n`, { mode: 0o600 });
  const rotated = await write(async (u) => {
    const rows = await u.db.secret.findMany({ where: { ciphertext: { not: null } } });
    for (const r of rows) {
      const id = {
        ownerId: r.ownerId,
        scopeType: r.scopeType,
        scopeId: r.scopeId,
        name: r.name,
        version: r.version,
      };
      const value = decryptValue({ ...id, secretId: r.id }, r.ciphertext ?? "", current);
      await u.db.secret.update({ where: { id: r.id }, data: { ciphertext: encryptValue(id, value, next) } });
    }
    // issue 17: notification channels' secrets move with the key too (not counted in `rotated`).
    await reencryptChannelSecrets(u, current, next);
    return rows.length;
  }, "secret rotate-key");
  if (!fromEnv) fs.renameSync(pending, keyFilePath());
  forgetSecretKey();
  return { rotated };
}
