import { randomBytes } from "node:crypto";
import { EventEmitter } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for the Anthropic Messages API (`POST /v1/messages`), so real Claude Code (through the
 * Agent SDK) runs end to end with no model key: tests, `npm run demo` and the benchmarks point
 * `ANTHROPIC_BASE_URL` at it. Each reply is decided by a script from the request: a function, or a list of
 * steps ("when the last user message says X, call tool Y with input Z"). Replies stream the complete SSE
 * sequence Claude Code expects (see docs/runtimes.md), or come back as one JSON message when the request
 * asks for `stream: false`. Usage numbers are estimated from the request and reply sizes.
 */

/** A content block of a request message (only the fields the scripts read are typed). */
export type RequestBlock = {
  type: string;
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: unknown;
  is_error?: boolean;
};

export type RequestMessage = { role: string; content: string | RequestBlock[] };

/** One `POST /v1/messages` as the script sees it. */
export type ModelRequest = {
  model: string;
  stream: boolean;
  system: string;
  messages: RequestMessage[];
  /** Names of the tools offered to the model (e.g. `mcp__switchboard__whoami`). */
  tools: string[];
  /** The text blocks of the last `user` message (tool results excluded), joined by newlines. */
  lastUserText: string;
  /** Tool results in the last `user` message, with the name of the tool call each answers. */
  toolResults: { toolUseId: string; name: string; isError: boolean; text: string }[];
  /** The whole request body as received. */
  body: Record<string, unknown>;
};

export type ToolCall = { name: string; input?: unknown; id?: string };

/** What the stand-in answers: text and/or tool calls, in that order. */
export type ModelReply = {
  text?: string;
  tools?: ToolCall[];
  /** Default: `tool_use` when the reply calls tools, else `end_turn`. */
  stopReason?: "end_turn" | "tool_use" | "max_tokens" | "stop_sequence";
  /** Overrides of the estimated usage. */
  usage?: Partial<Usage>;
};

export type Usage = {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
};

/** When a step applies. Every given condition must hold. */
export type StepWhen = {
  /**
   * The system prompt contains this (string) or matches it (RegExp). One stand-in serves every agent of a
   * team: the system prompt, which names the agent, tells them apart.
   */
  systemSays?: string | RegExp;
  /** The last user message's text contains this (string) or matches it (RegExp). */
  userSays?: string | RegExp;
  /** The last user message carries the result of a call to this tool. */
  afterTool?: string;
  /** This tool is offered in the request. */
  hasTool?: string;
  /** Anything else. */
  test?: (req: ModelRequest) => boolean;
};

export type Step = {
  when?: StepWhen;
  reply: ModelReply | ((req: ModelRequest) => ModelReply | Promise<ModelReply>);
  /** Keep the step after it fired (default: a step fires once). */
  repeat?: boolean;
};

/** A script: a function of the request, or steps tried in order (the first unused step that applies). */
export type Script = ((req: ModelRequest) => ModelReply | Promise<ModelReply>) | Step[];

/** A reply with nothing scripted: end the turn with a short text. */
export const DEFAULT_REPLY: ModelReply = { text: "Done." };

export type ModelServer = {
  /** Base URL for `ANTHROPIC_BASE_URL` (no trailing slash). */
  url: string;
  /** Every `/v1/messages` request so far, in order. */
  requests: ModelRequest[];
  /** Resolves with the first request (already seen or coming) that satisfies `pred`. */
  waitForRequest(pred: (req: ModelRequest) => boolean, timeoutMs?: number): Promise<ModelRequest>;
  /** Replace the script (the steps consumed so far are forgotten). */
  setScript(script: Script): void;
  close(): Promise<void>;
};

function blocks(content: RequestMessage["content"]): RequestBlock[] {
  return typeof content === "string"
    ? [{ type: "text", text: content }]
    : Array.isArray(content)
      ? content
      : [];
}

function blockText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((b) => (b && typeof b === "object" && typeof b.text === "string" ? b.text : ""))
    .filter(Boolean)
    .join("\n");
}

/** Reads the request the way a script wants it; tolerant of `role: "system"` entries and non-alternation. */
export function parseRequest(body: Record<string, unknown>): ModelRequest {
  const messages = (Array.isArray(body.messages) ? body.messages : []) as RequestMessage[];
  const system = typeof body.system === "string" ? body.system : blockText(body.system);
  const tools = (Array.isArray(body.tools) ? body.tools : [])
    .map((t) => (t && typeof t === "object" && typeof t.name === "string" ? (t.name as string) : ""))
    .filter(Boolean);
  const toolNames = new Map<string, string>();
  for (const m of messages) {
    if (m.role !== "assistant") continue;
    for (const b of blocks(m.content)) if (b.type === "tool_use" && b.id) toolNames.set(b.id, b.name ?? "");
  }
  const lastUser = [...messages].reverse().find((m) => m.role === "user");
  const userBlocks = lastUser ? blocks(lastUser.content) : [];
  return {
    model: typeof body.model === "string" ? body.model : "claude-standin",
    stream: body.stream === true,
    system,
    messages,
    tools,
    lastUserText: userBlocks
      .filter((b) => b.type === "text" && typeof b.text === "string")
      .map((b) => b.text)
      .join("\n"),
    toolResults: userBlocks
      .filter((b) => b.type === "tool_result")
      .map((b) => ({
        toolUseId: b.tool_use_id ?? "",
        name: toolNames.get(b.tool_use_id ?? "") ?? "",
        isError: b.is_error === true,
        text: blockText(b.content),
      })),
    body,
  };
}

const says = (text: string, pattern: string | RegExp) =>
  typeof pattern === "string" ? text.includes(pattern) : pattern.test(text);

function applies(when: StepWhen | undefined, req: ModelRequest): boolean {
  if (!when) return true;
  if (when.systemSays !== undefined && !says(req.system, when.systemSays)) return false;
  if (when.userSays !== undefined && !says(req.lastUserText, when.userSays)) return false;
  if (when.afterTool !== undefined && !req.toolResults.some((r) => r.name === when.afterTool)) return false;
  if (when.hasTool !== undefined && !req.tools.includes(when.hasTool)) return false;
  if (when.test && !when.test(req)) return false;
  return true;
}

/** Roughly 4 characters a token, as the API's own counts run for English and JSON. */
const tokens = (chars: number) => Math.max(1, Math.ceil(chars / 4));

const id = (prefix: string) => `${prefix}_standin_${randomBytes(9).toString("base64url")}`;

type Block = { type: "text"; text: string } | { type: "tool_use"; id: string; name: string; input: unknown };

function replyBlocks(reply: ModelReply): Block[] {
  const out: Block[] = [];
  if (reply.text) out.push({ type: "text", text: reply.text });
  for (const t of reply.tools ?? []) {
    out.push({ type: "tool_use", id: t.id ?? id("toolu"), name: t.name, input: t.input ?? {} });
  }
  if (out.length === 0) out.push({ type: "text", text: DEFAULT_REPLY.text ?? "" });
  return out;
}

function usageFor(rawBody: string, content: Block[], over: Partial<Usage> | undefined): Usage {
  return {
    input_tokens: tokens(rawBody.length),
    output_tokens: tokens(JSON.stringify(content).length),
    cache_read_input_tokens: 0,
    cache_creation_input_tokens: 0,
    ...over,
  };
}

/** Splits a string into two pieces (the CLI must reassemble split deltas). */
function halves(s: string): string[] {
  if (s.length < 2) return [s];
  const mid = Math.ceil(s.length / 2);
  return [s.slice(0, mid), s.slice(mid)];
}

function sse(res: http.ServerResponse, event: string, data: unknown) {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

function streamReply(res: http.ServerResponse, model: string, content: Block[], stop: string, usage: Usage) {
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
    "request-id": id("req"),
  });
  sse(res, "message_start", {
    type: "message_start",
    message: {
      id: id("msg"),
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...usage, output_tokens: 1 },
    },
  });
  sse(res, "ping", { type: "ping" });
  content.forEach((b, index) => {
    if (b.type === "text") {
      sse(res, "content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "text", text: "" },
      });
      for (const part of halves(b.text)) {
        sse(res, "content_block_delta", {
          type: "content_block_delta",
          index,
          delta: { type: "text_delta", text: part },
        });
      }
    } else {
      sse(res, "content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "tool_use", id: b.id, name: b.name, input: {} },
      });
      for (const part of halves(JSON.stringify(b.input))) {
        sse(res, "content_block_delta", {
          type: "content_block_delta",
          index,
          delta: { type: "input_json_delta", partial_json: part },
        });
      }
    }
    sse(res, "content_block_stop", { type: "content_block_stop", index });
  });
  sse(res, "message_delta", {
    type: "message_delta",
    delta: { stop_reason: stop, stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  });
  sse(res, "message_stop", { type: "message_stop" });
  res.end();
}

function json(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json", "request-id": id("req") });
  res.end(JSON.stringify(body));
}

/** Starts the stand-in on `127.0.0.1` (port 0: a free one). */
export async function startModelServer(opts: { script?: Script; port?: number } = {}): Promise<ModelServer> {
  let script: Script = opts.script ?? [];
  let used = new Set<Step>();
  const requests: ModelRequest[] = [];
  const seen = new EventEmitter();
  seen.setMaxListeners(0);

  const decide = async (req: ModelRequest): Promise<ModelReply> => {
    if (typeof script === "function") return script(req);
    const step = script.find((s) => !used.has(s) && applies(s.when, req));
    if (!step) return DEFAULT_REPLY;
    if (!step.repeat) used.add(step);
    return typeof step.reply === "function" ? step.reply(req) : step.reply;
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://standin");
    if (req.method === "HEAD" || (req.method === "GET" && url.pathname === "/")) {
      res.writeHead(200).end();
      return;
    }
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (d) => {
      raw += d;
    });
    req.on("end", () => {
      void (async () => {
        let body: Record<string, unknown>;
        try {
          body = JSON.parse(raw || "{}");
        } catch {
          return json(res, 400, {
            type: "error",
            error: { type: "invalid_request_error", message: "bad JSON" },
          });
        }
        if (req.method === "POST" && url.pathname === "/v1/messages/count_tokens") {
          return json(res, 200, { input_tokens: tokens(raw.length) });
        }
        if (req.method !== "POST" || url.pathname !== "/v1/messages") {
          return json(res, 404, { type: "error", error: { type: "not_found_error", message: url.pathname } });
        }
        const parsed = parseRequest(body);
        requests.push(parsed);
        seen.emit("request", parsed);
        let reply: ModelReply;
        try {
          reply = await decide(parsed);
        } catch (e) {
          return json(res, 500, { type: "error", error: { type: "api_error", message: String(e) } });
        }
        const content = replyBlocks(reply);
        const stop =
          reply.stopReason ?? (content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn");
        const usage = usageFor(raw, content, reply.usage);
        if (parsed.stream) return streamReply(res, parsed.model, content, stop, usage);
        json(res, 200, {
          id: id("msg"),
          type: "message",
          role: "assistant",
          model: parsed.model,
          content,
          stop_reason: stop,
          stop_sequence: null,
          usage,
        });
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    setScript(s) {
      script = s;
      used = new Set();
    },
    waitForRequest(pred, timeoutMs = 30_000) {
      const hit = requests.find(pred);
      if (hit) return Promise.resolve(hit);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          seen.off("request", on);
          reject(new Error(`stand-in: no matching request within ${timeoutMs} ms (${requests.length} seen)`));
        }, timeoutMs);
        const on = (r: ModelRequest) => {
          if (!pred(r)) return;
          clearTimeout(timer);
          seen.off("request", on);
          resolve(r);
        };
        seen.on("request", on);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
