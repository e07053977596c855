// /mcp – the MCP endpoint (Streamable HTTP, stateless): authenticate, build the caller's server, hand over.
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { authenticateBearer, bearerFrom } from "@/lib/auth/caller";
import { env } from "@/lib/env";
import { originAllowed } from "@/lib/http/origin";
import { buildServer } from "@/lib/mcp/server";

export const dynamic = "force-dynamic";

const jsonError = (status: number, code: string, message: string, headers: Record<string, string> = {}) =>
  Response.json(
    { jsonrpc: "2.0", error: { code: -32000, message, data: { code } }, id: null },
    { status, headers },
  );

async function handle(req: Request): Promise<Response> {
  if (!originAllowed(req)) return jsonError(403, "origin_not_allowed", "Origin not allowed");
  const secret = bearerFrom(req.headers.get("authorization"));
  const caller = secret ? await authenticateBearer(secret) : undefined;
  if (!caller) {
    return jsonError(401, "unauthorized", "A valid agent API key or owner token is required", {
      "WWW-Authenticate": `Bearer realm="switchboard"${secret ? ', error="invalid_token"' : ""}`,
    });
  }
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    maxRequestBodySize: env().SWITCHBOARD_MAX_BODY_BYTES,
  });
  await buildServer(caller).connect(transport);
  return transport.handleRequest(req, {
    authInfo: { token: "", clientId: caller.kind, scopes: [], extra: { caller } },
  });
}

export { handle as GET, handle as POST, handle as DELETE };
