import { z } from "zod";
import { read, write } from "@/lib/db";
import { type SqlDate, toDate } from "@/lib/db/rows";
import { notFound } from "@/lib/errors";
import { hashSecret, newSecret, RUNNER_TOKEN_PREFIX } from "@/lib/ids";

/**
 * Runner tokens (issue 11, docs/runner.md). Operator-scoped: a runner serves every goal of the hub (like
 * the CLI, whose user is the operator of the installation), so a token belongs to no owner. Stored as a
 * hash like API keys; the secret is shown once; revocable.
 */
export const runnerTokenInput = z.strictObject({
  name: z.string().trim().min(1).max(100).default("runner"),
});

export type RunnerIdentity = { tokenId: number; name: string };

export async function createRunnerToken(input: z.input<typeof runnerTokenInput>) {
  const { name } = runnerTokenInput.parse(input);
  const { secret, hash, display } = newSecret(RUNNER_TOKEN_PREFIX);
  const row = await write(({ db }) => db.runnerToken.create({ data: { name, hash, prefix: display } }));
  return { id: row.id, name, token: secret };
}

export async function revokeRunnerToken(id: number) {
  await write(async ({ db }) => {
    const t = await db.runnerToken.findUnique({ where: { id } });
    if (!t) throw notFound(`runner token ${id}`);
    if (!t.revokedAt) await db.runnerToken.update({ where: { id }, data: { revokedAt: new Date() } });
  });
  return { id, revoked: true };
}

export async function listRunnerTokens() {
  const rows = await read(({ db }) => db.runnerToken.findMany({ orderBy: { id: "asc" } }));
  return rows.map((t) => ({
    id: t.id,
    name: t.name,
    prefix: t.prefix,
    created_at: t.createdAt.toISOString(),
    revoked_at: t.revokedAt?.toISOString() ?? null,
    last_seen_at: t.lastSeenAt?.toISOString() ?? null,
    status: t.statusJson ? (JSON.parse(t.statusJson) as unknown) : null,
  }));
}

/** A runner token to its identity; undefined when unknown or revoked. Hand-written SQL: every runner call. */
export async function authenticateRunner(secret: string): Promise<RunnerIdentity | undefined> {
  if (!secret.startsWith(RUNNER_TOKEN_PREFIX)) return undefined;
  const row = await read(({ sql }) =>
    sql.get<{ id: number; name: string; lastUsedAt: SqlDate | null }>(
      `SELECT id, name, "lastUsedAt" FROM "RunnerToken" WHERE hash = ? AND "revokedAt" IS NULL`,
      hashSecret(secret),
    ),
  );
  if (!row) return undefined;
  if (!row.lastUsedAt || Date.now() - toDate(row.lastUsedAt).getTime() > 60_000) {
    await write(({ sql }) =>
      sql.run(`UPDATE "RunnerToken" SET "lastUsedAt" = ? WHERE id = ?`, new Date(), row.id),
    );
  }
  return { tokenId: Number(row.id), name: row.name };
}
