import { z } from "zod";
import { read, write } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { newSecret, OWNER_TOKEN_PREFIX } from "@/lib/ids";

export const tokenInput = z.strictObject({ name: z.string().trim().min(1).max(100).default("token") });

/** Issue a personal access token; the secret is returned once and stored only as a hash. */
export async function createToken(userId: number, input: z.input<typeof tokenInput>) {
  const { name } = tokenInput.parse(input);
  const { secret, hash, display } = newSecret(OWNER_TOKEN_PREFIX);
  const row = await write(({ db }) =>
    db.personalToken.create({ data: { userId, name, hash, prefix: display } }),
  );
  return { id: row.id, name, token: secret };
}

export async function listTokens(userId: number) {
  const rows = await read(({ db }) =>
    db.personalToken.findMany({ where: { userId }, orderBy: { id: "desc" } }),
  );
  return rows.map((t) => ({
    id: t.id,
    name: t.name,
    prefix: t.prefix,
    created_at: t.createdAt.toISOString(),
    last_used_at: t.lastUsedAt?.toISOString() ?? null,
    revoked_at: t.revokedAt?.toISOString() ?? null,
  }));
}

export async function revokeToken(userId: number, tokenId: number) {
  await write(async ({ db }) => {
    const t = await db.personalToken.findFirst({ where: { id: tokenId, userId } });
    if (!t) throw notFound("token");
    if (!t.revokedAt) await db.personalToken.update({ where: { id: t.id }, data: { revokedAt: new Date() } });
  });
}
