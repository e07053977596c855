import { z } from "zod";
import { hashPassword } from "@/lib/auth/passwords";
import { read, write } from "@/lib/db";
import { DomainError } from "@/lib/errors";

export const ownerInput = z.strictObject({
  email: z
    .email()
    .max(254)
    .transform((e) => e.toLowerCase()),
  password: z.string().min(8, "password must have at least 8 characters").max(200),
  name: z.string().trim().max(100).optional(),
});

/**
 * Create an owner account. `firstOnly` (the setup page) refuses once any owner exists, so the setup
 * page cannot be used to add accounts later.
 */
export async function createOwner(input: z.input<typeof ownerInput>, opts: { firstOnly?: boolean } = {}) {
  const data = ownerInput.parse(input);
  const setupDone = () => new DomainError("setup_done", "An owner already exists; sign in instead.");
  // Checked before the (deliberately slow) password hash too, so a closed setup costs nothing.
  if (opts.firstOnly && (await ownerCount()) > 0) throw setupDone();
  const passwordHash = await hashPassword(data.password);
  return write(async ({ db, sql }) => {
    // PostgreSQL: concurrent first setups serialize here, so exactly one creates the owner (SQLite write
    // units are serialized already). Hand-written SQL: Prisma cannot take an advisory lock.
    if (opts.firstOnly && sql.postgres)
      await sql.get(`SELECT pg_advisory_xact_lock(4004005)::text AS locked`);
    if (opts.firstOnly && (await db.user.count()) > 0) throw setupDone();
    if (await db.user.findUnique({ where: { email: data.email } })) {
      throw new DomainError("email_taken", `An owner with email ${data.email} already exists.`);
    }
    const user = await db.user.create({ data: { email: data.email, name: data.name ?? null, passwordHash } });
    return { id: user.id, email: user.email };
  });
}

export async function ownerCount(): Promise<number> {
  return read(({ db }) => db.user.count());
}

export async function findOwnerByEmail(email: string) {
  return read(({ db }) => db.user.findUnique({ where: { email: email.toLowerCase() } }));
}

export async function findOwnerById(id: number) {
  return read(({ db }) => db.user.findUnique({ where: { id }, select: { id: true, email: true } }));
}

/** The owner for an email, or a `not_found` error (CLI). */
export async function requireOwnerByEmail(email: string) {
  const user = await findOwnerByEmail(email);
  if (!user) throw new DomainError("not_found", `No owner with email ${email}.`);
  return user;
}
