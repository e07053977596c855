import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv-provider.js";
import { z } from "zod";
import type { Caller } from "@/lib/auth/caller";
import { withUnitName } from "@/lib/db";
import { enforceAutonomy } from "@/lib/domain/agents/autonomy";
import { enforceToolScope, parseScope, type ToolScope, visibleInScope } from "@/lib/domain/agents/tool-scope";
import { beforeAgentTool } from "@/lib/domain/reviews/review-gate";
import { beforeBudgetedTool } from "@/lib/domain/usage/budget-gate";
import { env } from "@/lib/env";
import { DomainError, nulCharacters, storageValueError, zodToDomain } from "@/lib/errors";
import { logger } from "@/lib/log";
import { callerKey, holdWaitSlot } from "./limits";
import { type AnyTool, describeTool, visibleTo } from "./registry";
import { TOOLS } from "./tools";

export const SERVER_INFO = { name: "switchboard", version: "0.1.0" };

const INSTRUCTIONS =
  "Switchboard coordinates a team of agents working on one goal. Read your inbox with read_inbox (pass back `ack`), message other agents with send_message, and find them with list_peers. Leaders plan with declare_plan, spawn_agent for ready tasks, and answer their children's signal_review with terminate_child (approve) or send_message (rework); while a review waits, a leader's other tools are blocked. Every error result carries structuredContent.error.code and says what to do next.";

/**
 * The error envelope every tool may return. It is part of each advertised outputSchema because MCP
 * clients (the SDK's own `Client` among them) validate `structuredContent` against the outputSchema
 * even on `isError` results.
 */
export const errorEnvelope = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()) }),
});

/** tools/list entries, computed once per tool (JSON Schema from the same zod schemas that validate). */
const LISTING = new Map<string, Tool>(
  TOOLS.map((t) => [
    t.name,
    {
      name: t.name,
      title: t.title,
      description: describeTool(t),
      inputSchema: z.toJSONSchema(t.input, { io: "input", unrepresentable: "any" }) as Tool["inputSchema"],
      outputSchema: {
        type: "object",
        anyOf: [
          z.toJSONSchema(t.output, { io: "output", unrepresentable: "any" }),
          z.toJSONSchema(errorEnvelope, { io: "output" }),
        ],
      } as Tool["outputSchema"],
      annotations: {
        title: t.title,
        readOnlyHint: t.readOnly,
        destructiveHint: t.destructive,
        idempotentHint: t.idempotent,
      },
    },
  ]),
);

export function errorResult(e: DomainError): CallToolResult {
  const text = [`Error ${e.code}: ${e.message}`, e.hint].filter(Boolean).join("\n");
  return {
    isError: true,
    content: [{ type: "text", text }],
    structuredContent: { error: e.toJSON() },
  };
}

async function callTool(
  tool: AnyTool,
  caller: Caller,
  scope: ToolScope,
  args: unknown,
  extra: {
    signal: AbortSignal;
    progressToken?: string | number;
    sendNotification: (n: {
      method: "notifications/progress";
      params: Record<string, unknown>;
    }) => Promise<void>;
  },
): Promise<CallToolResult> {
  try {
    if (caller.kind === "agent") await enforceToolScope(caller, scope, tool.name);
  } catch (e) {
    if (e instanceof DomainError) return errorResult(e);
    throw e;
  }
  const nul = nulCharacters(args);
  if (nul) return errorResult(nul);
  const parsed = tool.input.safeParse(args ?? {});
  if (!parsed.success) return errorResult(zodToDomain(parsed.error));
  let release: (() => void) | undefined;
  if (tool.waits?.(parsed.data)) {
    release = holdWaitSlot(callerKey(caller));
    if (!release) {
      const max = env().SWITCHBOARD_OPEN_WAITS_PER_KEY;
      return errorResult(
        new DomainError(
          "rate_limited",
          `You already have ${max} blocking calls open; wait for one to return.`,
          {
            details: { limit: "open_waits", max, retry_after_s: 1 },
          },
        ),
      );
    }
  }
  try {
    if (caller.kind === "agent") {
      await beforeAgentTool(caller, tool.name);
      await beforeBudgetedTool(caller, tool.name, parsed.data);
      await enforceAutonomy(caller, tool.name, parsed.data, GATE_CONTEXT);
    }
    const output = await withUnitName(
      tool.name,
      tool.handler,
      {
        caller,
        signal: extra.signal,
        progress: (progress, message) => {
          if (extra.progressToken === undefined) return;
          extra
            .sendNotification({
              method: "notifications/progress",
              params: { progressToken: extra.progressToken, progress, message },
            })
            .catch(() => undefined);
        },
      },
      parsed.data,
    );
    const text = tool.text ? tool.text(output) : JSON.stringify(output);
    return { content: [{ type: "text", text }], structuredContent: output };
  } catch (e) {
    const known = e instanceof DomainError ? e : storageValueError(e);
    if (known) return errorResult(known);
    logger.error({ err: e, tool: tool.name }, "tool failed");
    return errorResult(new DomainError("internal_error", "Switchboard failed to handle this call."));
  } finally {
    release?.();
  }
}

/** The autonomy gate checks a held propose_agent against the agent tool names, as the tool does. */
const GATE_CONTEXT = {
  agentTools: TOOLS.filter((t) => t.audience !== "owner").map((t) => t.name),
};

/**
 * One JSON Schema validator for the process. Without it the SDK builds a fresh Ajv in every `new Server`,
 * which was 18 % of the server's CPU under load (BENCHMARKS.md); it is only used for elicitation anyway.
 */
const jsonSchemaValidator = new AjvJsonSchemaValidator();

/**
 * A fresh MCP server for one request, showing the caller the tools of its kind. `httpSignal` aborts when
 * the HTTP connection closes, so a blocked call (ask_user, a long-poll) stops waiting for a gone client.
 */
export function buildServer(caller: Caller, httpSignal?: AbortSignal): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    instructions: INSTRUCTIONS,
    jsonSchemaValidator,
  });
  // An agent sees and may call only the tools of its tool_scope (issue 13); the rule is lib/domain's.
  const scope: ToolScope = caller.kind === "agent" ? parseScope(caller.toolScopeJson) : null;
  const tools = visibleInScope(
    scope,
    TOOLS.filter((t) => visibleTo(t.audience, caller)),
  );
  const byName = new Map(TOOLS.filter((t) => visibleTo(t.audience, caller)).map((t) => [t.name, t]));
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((t) => LISTING.get(t.name) as Tool),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const tool = byName.get(req.params.name);
    if (!tool) {
      return errorResult(
        new DomainError(
          "unknown_tool",
          `No tool named ${req.params.name} for a caller of kind ${caller.kind}.`,
        ),
      );
    }
    return callTool(tool, caller, scope, req.params.arguments, {
      // The server lives for one stateless request: the SDK's own signal only aborts when the transport closes
      // (a client's notifications/cancelled arrives in another request), so the HTTP connection's is enough.
      signal: httpSignal ?? extra.signal,
      progressToken: extra._meta?.progressToken,
      sendNotification: (n) => extra.sendNotification(n),
    });
  });
  return server;
}
