import { authenticateBearer, bearerFrom } from "@/lib/auth/caller";
import { sessionOwner } from "@/lib/auth/next-auth";
import { withUnitName } from "@/lib/db";
import { authenticateRunner, type RunnerIdentity } from "@/lib/domain/runner/tokens";
import { DomainError, forbidden, notFound, nulCharacters, toDomainError } from "@/lib/errors";
import { OWNER_TOKEN_PREFIX } from "@/lib/ids";
import { logger } from "@/lib/log";
import { cappedText } from "./body";
import { originAllowed } from "./origin";

export type Owner = { userId: number; email: string };

type Ctx<P> = { owner: Owner; req: Request; params: P };

/** A domain error as a REST answer: `{error: {code, message, details}}` with the code's HTTP status. */
export const errorResponse = (e: DomainError, headers?: HeadersInit) =>
  Response.json({ error: e.toJSON() }, { status: e.status, headers });

/** The owner behind a request: an owner token (`Authorization: Bearer sb_pat_…`) or a session cookie. */
export async function requestOwner(req: Request): Promise<Owner | undefined> {
  const secret = bearerFrom(req.headers.get("authorization"));
  if (secret) {
    if (!secret.startsWith(OWNER_TOKEN_PREFIX)) return undefined;
    const caller = await authenticateBearer(secret);
    return caller?.kind === "owner" ? { userId: caller.userId, email: caller.email } : undefined;
  }
  return sessionOwner();
}

/**
 * Read a JSON body, refusing one over the size cap, and (unless `allowNul`: the runner protocol, whose
 * reports carry program output) one with a NUL character in a string (`invalid_input`, lib/errors/nul.ts).
 */
export async function jsonBody(req: Request, opts: { allowNul?: boolean } = {}): Promise<unknown> {
  const text = await cappedText(req);
  if (text === undefined) throw new DomainError("payload_too_large", "Request body too large");
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    throw new DomainError("invalid_input", "Body is not valid JSON");
  }
  const nul = opts.allowNul ? undefined : nulCharacters(body);
  if (nul) throw nul;
  return body;
}

/**
 * Wrap an owner REST handler: Origin check, authentication, error mapping (DomainError → its status,
 * ZodError → invalid_input, both through `toDomainError`; anything else → opaque 500). A handler returns a
 * Response or JSON data.
 */
export function ownerRoute<P = Record<string, string>>(
  handler: (ctx: Ctx<P>) => Promise<Response | unknown>,
) {
  return (req: Request, context: { params: Promise<P> }): Promise<Response> =>
    serve(req, "request", async () => {
      if (!originAllowed(req)) throw forbidden("Origin not allowed");
      const owner = await requestOwner(req);
      if (!owner) {
        return errorResponse(new DomainError("unauthorized", "Sign in or send an owner token"), {
          "WWW-Authenticate": 'Bearer realm="switchboard"',
        });
      }
      return withUnitName(routeName(req), handler, { owner, req, params: await context.params });
    });
}

/** The slow-unit log's name for the units a route starts. */
const routeName = (req: Request) => `${req.method} ${new URL(req.url).pathname}`;

/**
 * Run one REST request: the handler's Response, or its data as JSON; errors mapped once (DomainError → its
 * status, ZodError → invalid_input, both through `toDomainError`; anything else logged and an opaque 500).
 */
async function serve(req: Request, what: string, run: () => Promise<Response | unknown>): Promise<Response> {
  try {
    const result = await run();
    return result instanceof Response ? result : Response.json(result);
  } catch (e) {
    const known = toDomainError(e);
    if (known) return errorResponse(known);
    logger.error({ err: e, url: req.url }, `${what} failed`);
    return errorResponse(new DomainError("internal_error", "Internal error"));
  }
}

/** Ids are the database's 32-bit `Int`s: anything larger names nothing (and would fail the query). */
const MAX_ID = 2_147_483_647;

/** A positive integer path parameter (decimal digits only), or not_found. */
export function idParam(value: string | undefined, what: string): number {
  const n = /^\d{1,10}$/.test(value ?? "") ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n <= 0 || n > MAX_ID) throw notFound(what);
  return n;
}

/**
 * Wrap a runner-protocol handler (issue 11, docs/runner.md): `Authorization: Bearer sb_runner_…` only
 * (no session, no Origin: runners are programs), the JSON body parsed, the same error mapping as
 * `ownerRoute`.
 */
export function runnerRoute<P = Record<string, string>>(
  handler: (ctx: { runner: RunnerIdentity; body: unknown; req: Request; params: P }) => Promise<unknown>,
) {
  return (req: Request, context: { params: Promise<P> }): Promise<Response> =>
    serve(req, "runner request", async () => {
      const secret = bearerFrom(req.headers.get("authorization"));
      const runner = secret ? await authenticateRunner(secret) : undefined;
      if (!runner) {
        return errorResponse(new DomainError("unauthorized", "Send a runner token (Bearer sb_runner_…)"), {
          "WWW-Authenticate": 'Bearer realm="switchboard-runner"',
        });
      }
      const body = await jsonBody(req, { allowNul: true });
      return withUnitName(routeName(req), handler, { runner, body, req, params: await context.params });
    });
}
