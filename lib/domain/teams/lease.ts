import { write } from "@/lib/db";
import { env } from "@/lib/env";

/**
 * Named leases in the database ("Lease" table): the per-agent spawn and create_team locks and the
 * watchdog's "exactly one per deployment" election. A lease is taken when free, expired, or already
 * held by the same holder (renewal); the row update is atomic on both providers, so it holds across
 * several server processes on one PostgreSQL. `expiresAt` bounds how long a crashed holder blocks.
 * `now` is the caller's clock (the watchdog's tests advance their own).
 */
export async function acquireLease(
  name: string,
  holder: string,
  ttlMs: number,
  now = new Date(),
): Promise<boolean> {
  const until = new Date(now.getTime() + ttlMs);
  return write(async ({ sql }) => {
    const changed = await sql.run(
      `INSERT INTO "Lease" (name, holder, "expiresAt") VALUES (?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, "expiresAt" = excluded."expiresAt"
       WHERE "Lease"."expiresAt" < ? OR "Lease".holder = excluded.holder`,
      name,
      holder,
      until,
      now,
    );
    return changed > 0;
  });
}

/** Give a lease back (only its holder can). */
export async function releaseLease(name: string, holder: string): Promise<void> {
  await write(({ sql }) => sql.run(`DELETE FROM "Lease" WHERE name = ? AND holder = ?`, name, holder));
}

/** Test aid (SWITCHBOARD_SPAWN_HOLD_MS): keep a per-agent lock a little longer so overlapping calls are certain. */
export async function holdLock(): Promise<void> {
  const ms = env().SWITCHBOARD_SPAWN_HOLD_MS;
  if (ms > 0) await new Promise((r) => setTimeout(r, ms));
}
