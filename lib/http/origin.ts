import { env, publicOrigin } from "@/lib/env";

/**
 * Origins a browser may call us from: the app's configured origin (SWITCHBOARD_URL / NEXTAUTH_URL),
 * localhost on our port, and SWITCHBOARD_ALLOWED_ORIGINS. Deliberately NOT derived from the request's
 * Host header: under DNS rebinding an attacker's page sends a matching Host.
 */
export function allowedOrigins(): Set<string> {
  const port = env().PORT;
  const set = new Set([`http://localhost:${port}`, `http://127.0.0.1:${port}`, `http://[::1]:${port}`]);
  const own = publicOrigin();
  if (own) set.add(own);
  for (const o of env().SWITCHBOARD_ALLOWED_ORIGINS.split(","))
    if (o.trim()) set.add(new URL(o.trim()).origin);
  return set;
}

/** True when the request carries no Origin (not a browser) or an allowed one. */
export function originAllowed(req: Request): boolean {
  const origin = req.headers.get("origin");
  return origin === null || allowedOrigins().has(origin);
}
