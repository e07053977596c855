import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { NextAuthOptions } from "next-auth";
import { getServerSession } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { hashPassword, verifyPassword } from "@/lib/auth/passwords";
import { PEER_HEADER } from "@/lib/auth/setup-token";
import { clearSignInFailures, recordSignInFailure, signInBlocked } from "@/lib/auth/sign-in-limit";
import { findOwnerByEmail, findOwnerById } from "@/lib/domain/owners/create-owner";
import { dataDir, env } from "@/lib/env";

/** NEXTAUTH_SECRET (or AUTH_SECRET), else one generated on first start and kept in the data directory (mode 0600). */
function sessionSecret(): string {
  const fromEnv = env().NEXTAUTH_SECRET || env().AUTH_SECRET;
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
      async authorize(credentials, req) {
        if (!credentials?.email || !credentials.password) return null;
        const email = credentials.email.toLowerCase();
        const address = clientAddress(req?.headers);
        if (signInBlocked(email, address)) throw new Error(TOO_MANY_ATTEMPTS);
        const user = await findOwnerByEmail(email);
        // An unknown email costs the same hash as a known one: timing does not tell which emails exist.
        const ok = await verifyPassword(user?.passwordHash ?? (await dummyHash()), credentials.password);
        if (!user || !ok) {
          recordSignInFailure(email, address);
          return null;
        }
        clearSignInFailures(email);
        return { id: String(user.id), email: user.email, name: user.name ?? user.email };
      },
    }),
  ],
  callbacks: {
    jwt: ({ token, user }) => (user ? { ...token, uid: Number(user.id) } : token),
    session: ({ session, token }) => ({ ...session, uid: token.uid as number }),
  },
};

/** The signed-in owner of this request, if any (and if the account still exists: sessions outlive nothing). */
export async function sessionOwner(): Promise<{ userId: number; email: string } | undefined> {
  const s = (await getServerSession(authOptions)) as { uid?: number } | null;
  if (!s?.uid) return undefined;
  const user = await findOwnerById(s.uid);
  return user ? { userId: user.id, email: user.email } : undefined;
}

/** The error text next-auth hands the sign-in form when an email or address is rate limited. */
const TOO_MANY_ATTEMPTS = "too_many_attempts";

/** The client's address: the proxy's claim when proxied (server/main.ts), else the TCP peer. */
function clientAddress(headers: Record<string, unknown> | undefined): string {
  const peer = headers?.[PEER_HEADER];
  const forwarded = headers?.["x-forwarded-for"];
  const raw = peer === "proxied" || peer === undefined ? forwarded : peer;
  return typeof raw === "string" ? (raw.split(",")[0]?.trim() ?? "") : "";
}

let dummy: Promise<string> | undefined;
/** A hash of a random password, for equal work on unknown emails. */
const dummyHash = () => {
  dummy ??= hashPassword(randomBytes(16).toString("hex"));
  return dummy;
};
