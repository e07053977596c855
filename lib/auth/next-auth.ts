import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { NextAuthOptions } from "next-auth";
import { getServerSession } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { verifyPassword } from "@/lib/auth/passwords";
import { findOwnerByEmail } from "@/lib/domain/owners/create-owner";
import { dataDir, env } from "@/lib/env";

/** NEXTAUTH_SECRET, or one generated on first start and kept in the data directory (mode 0600). */
function sessionSecret(): string {
  const fromEnv = env().NEXTAUTH_SECRET;
  if (fromEnv) return fromEnv;
  const file = path.join(dataDir(), "nextauth.secret");
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    fs.mkdirSync(dataDir(), { recursive: true });
    const secret = randomBytes(32).toString("base64url");
    try {
      fs.writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
    } catch {
      return fs.readFileSync(file, "utf8").trim(); // another process won the race
    }
    return secret;
  }
}

// Redirects use the configured public URL; without one, the request's own host (self-hosted default).
if (env().SWITCHBOARD_URL && !process.env.NEXTAUTH_URL) process.env.NEXTAUTH_URL = env().SWITCHBOARD_URL;
process.env.AUTH_TRUST_HOST ??= "true";

export const authOptions: NextAuthOptions = {
  secret: sessionSecret(),
  session: { strategy: "jwt", maxAge: 30 * 24 * 3600 },
  pages: { signIn: "/signin" },
  providers: [
    CredentialsProvider({
      name: "Email and password",
      credentials: {
        email: { label: "Email", type: "email" },
        password: { label: "Password", type: "password" },
      },
      async authorize(credentials) {
        if (!credentials?.email || !credentials.password) return null;
        const user = await findOwnerByEmail(credentials.email);
        if (!user || !(await verifyPassword(user.passwordHash, credentials.password))) return null;
        return { id: String(user.id), email: user.email, name: user.name ?? user.email };
      },
    }),
  ],
  callbacks: {
    jwt: ({ token, user }) => (user ? { ...token, uid: Number(user.id) } : token),
    session: ({ session, token }) => ({ ...session, uid: token.uid as number }),
  },
};

/** The signed-in owner of this request, if any. */
export async function sessionOwner(): Promise<{ userId: number; email: string } | undefined> {
  const s = (await getServerSession(authOptions)) as {
    uid?: number;
    user?: { email?: string | null };
  } | null;
  return s?.uid ? { userId: s.uid, email: s.user?.email ?? "" } : undefined;
}
