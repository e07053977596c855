import { randomBytes, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { dataDir } from "@/lib/env";

/**
 * First-start protection (issue 16, docs/decisions.md "First start"). Until the first owner exists, /setup
 * is open without a credential only to a browser on the server's own machine (a loopback peer, not behind a
 * proxy); from anywhere else it asks for a one-time setup token, printed on the server's console at start
 * and kept in `<data>/setup.token` (mode 0600) until setup is done.
 */

/** The header the production server (server/main.ts) sets to the TCP peer's address; a client's own is replaced. */
export const PEER_HEADER = "x-switchboard-peer";

const LOOPBACK = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

const tokenFile = () => path.join(dataDir(), "setup.token");

/** The setup token, created on first use. */
export function setupToken(): string {
  try {
    return fs.readFileSync(tokenFile(), "utf8").trim();
  } catch {
    fs.mkdirSync(dataDir(), { recursive: true });
    const token = randomBytes(18).toString("base64url");
    try {
      fs.writeFileSync(tokenFile(), token, { mode: 0o600, flag: "wx" });
      return token;
    } catch {
      return fs.readFileSync(tokenFile(), "utf8").trim(); // another process won the race
    }
  }
}

/** Setup is done: the token is of no use any more. */
export function discardSetupToken(): void {
  fs.rmSync(tokenFile(), { force: true });
}

/**
 * True when the request comes straight from the server's own machine. The production server sets the peer
 * header ("proxied" when the request arrived with X-Forwarded-For or Forwarded; Next adds its own
 * X-Forwarded-For later, so that header cannot be judged here).
 */
export function fromLoopback(headers: Headers): boolean {
  const peer = headers.get(PEER_HEADER);
  return peer !== null && LOOPBACK.has(peer);
}

/** May this request create the first owner: a loopback peer, or the right setup token. */
export function setupAllowed(headers: Headers, token: string | undefined): boolean {
  if (fromLoopback(headers)) return true;
  if (!token) return false;
  const want = Buffer.from(setupToken());
  const got = Buffer.from(token);
  return got.length === want.length && timingSafeEqual(got, want);
}
