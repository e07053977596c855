import { z } from "zod";
import { authenticateBearer, bearerFrom } from "@/lib/auth/caller";
import { sessionOwner } from "@/lib/auth/next-auth";
import { withUnitName } from "@/lib/db";
import { DomainError, forbidden } from "@/lib/errors";
import { logger } from "@/lib/log";
import { zodToDomain } from "@/lib/mcp/server";
import { cappedText } from "./body";
import { originAllowed } from "./origin";

export type Owner = { userId: number; email: string };

type Ctx<P> = { owner: Owner; req: Request; params: P };

export const errorResponse = (e: DomainError) => Response.json({ error: e.toJSON() }, { status: e.status });

/** The owner behind a request: an owner token (`Authorization: Bearer sb_pat_…`) or a session cookie. */
export async function requestOwner(req: Request): Promise<Owner | undefined> {
  const secret = bearerFrom(req.headers.get("authorization"));
  if (secret) {
    const caller = await authenticateBearer(secret);
    return caller?.kind === "owner" ? { userId: caller.userId, email: caller.email } : undefined;
  }
  return sessionOwner();
}

/** Read a JSON body, refusing one over the size cap. */
export async function jsonBody(req: Request): Promise<unknown> {
  const text = await cappedText(req);
  if (text === undefined)
    throw new DomainError("payload_too_large", "Request body too large", { status: 413 });
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    throw new DomainError("invalid_input", "Body is not valid JSON", { status: 400 });
  }
}

/**
 * Wrap an owner REST handler: Origin check, authentication, error mapping (DomainError → its status,
 * ZodError → 422 invalid_input, anything else → opaque 500). A handler returns a Response or JSON data.
 */
export function ownerRoute<P = Record<string, string>>(
  handler: (ctx: Ctx<P>) => Promise<Response | unknown>,
) {
  return async (req: Request, context: { params: Promise<P> }): Promise<Response> => {
    try {
      if (!originAllowed(req)) throw forbidden("Origin not allowed");
      const owner = await requestOwner(req);
      if (!owner) {
        return Response.json(
          { error: { code: "unauthorized", message: "Sign in or send an owner token", details: {} } },
          { status: 401, headers: { "WWW-Authenticate": 'Bearer realm="switchboard"' } },
        );
      }
      const result = await withUnitName(`${req.method} ${new URL(req.url).pathname}`, handler, {
        owner,
        req,
        params: await context.params,
      });
      return result instanceof Response ? result : Response.json(result);
    } catch (e) {
      if (e instanceof DomainError) return errorResponse(e);
      if (e instanceof z.ZodError) return errorResponse(zodToDomain(e));
      logger.error({ err: e, url: req.url }, "request failed");
      return Response.json(
        { error: { code: "internal_error", message: "Internal error", details: {} } },
        { status: 500 },
      );
    }
  };
}

/** A positive integer path parameter, or not_found. */
export function idParam(value: string | undefined, what: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n <= 0)
    throw new DomainError("not_found", `${what} not found`, { status: 404 });
  return n;
}
