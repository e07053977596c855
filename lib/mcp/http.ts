// The MCP endpoint's request handler (Streamable HTTP, stateless): Origin check, credential, the
// caller's server from the registry, the SDK's web-standard transport. Served by app/mcp/route.ts and by
// the fast path of server/main.ts.
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { authenticateBearer, bearerFrom, type Caller } from "@/lib/auth/caller";
import { env } from "@/lib/env";
import { CATALOGUE, type ErrorCode, isDomainError } from "@/lib/errors";
import { cappedText } from "@/lib/http/body";
import { originAllowed } from "@/lib/http/origin";
import { callerKey, takeCalls } from "./limits";
import { buildServer } from "./server";

/** An HTTP-level refusal as a JSON-RPC error; the HTTP status is the code's (catalogue). */
const jsonError = (
  code: ErrorCode,
  message: string,
  headers: Record<string, string> = {},
  details?: Record<string, unknown>,
) =>
  Response.json(
    {
      jsonrpc: "2.0",
      error: { code: -32000, message, data: details ? { code, details } : { code } },
      id: null,
    },
    { status: CATALOGUE[code].status, headers },
  );

/**
 * `body`: the request body when the caller has already read it (server/main.ts reads it off the socket;
 * null = over the cap); by default it is read from `req`.
 */
export async function handleMcpRequest(req: Request, body?: string | null): Promise<Response> {
  if (!originAllowed(req)) return jsonError("origin_not_allowed", "Origin not allowed");
  // Stateless: no server-sent stream to open (GET) and no session to end (DELETE).
  if (req.method !== "POST") {
    return jsonError("method_not_allowed", "Method Not Allowed: /mcp is stateless; send requests with POST", {
      Allow: "POST",
    });
  }
  // The size cap is checked before any authentication cost (and the body is never read past it).
  const text = body === undefined ? await cappedText(req) : body;
  if (text == null) {
    const cap = env().SWITCHBOARD_MAX_BODY_BYTES;
    return jsonError("payload_too_large", `Payload Too Large: Request body must not exceed ${cap} bytes`);
  }
  const secret = bearerFrom(req.headers.get("authorization"));
  let caller: Caller | undefined;
  try {
    caller = secret ? await authenticateBearer(secret) : undefined;
  } catch (e) {
    if (!isDomainError(e) || e.code !== "agent_retired") throw e;
    return jsonError(
      e.code,
      e.message,
      { "WWW-Authenticate": 'Bearer realm="switchboard", error="invalid_token"' },
      e.details,
    );
  }
  if (!caller) {
    return jsonError("unauthorized", "A valid agent API key or owner token is required", {
      "WWW-Authenticate": `Bearer realm="switchboard"${secret ? ', error="invalid_token"' : ""}`,
    });
  }
  let parsedBody: unknown;
  try {
    parsedBody = JSON.parse(text);
  } catch {
    return Response.json(
      { jsonrpc: "2.0", error: { code: -32700, message: "Parse error" }, id: null },
      { status: 400 },
    );
  }
  const messages = Array.isArray(parsedBody) ? parsedBody.length : 1;
  const maxBatch = env().SWITCHBOARD_MAX_BATCH;
  if (messages > maxBatch) {
    return jsonError(
      "batch_too_large",
      `A batch may hold at most ${maxBatch} messages`,
      {},
      { max: maxBatch },
    );
  }
  const retryMs = takeCalls(callerKey(caller), messages);
  if (retryMs > 0) {
    const retryAfterS = Math.ceil(retryMs / 1000);
    return jsonError(
      "rate_limited",
      `Too many calls from this credential; retry in ${retryAfterS} s`,
      { "Retry-After": String(retryAfterS) },
      { limit: "calls_per_second", retry_after_s: retryAfterS },
    );
  }
  // A plain JSON reply is cheaper for both sides than an SSE stream; stream only when the client asked for
  // progress notifications (a long-poll that reports while it waits).
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: !wantsProgress(parsedBody),
  });
  await buildServer(caller, req.signal).connect(transport);
  return transport.handleRequest(req, {
    parsedBody,
    authInfo: { token: "", clientId: caller.kind, scopes: [], extra: { caller } },
  });
}

/** True when any JSON-RPC message of the body carries a progress token. */
function wantsProgress(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some(
    (m) =>
      (m as { params?: { _meta?: { progressToken?: unknown } } } | null)?.params?._meta?.progressToken !==
      undefined,
  );
}
