import { hubTool } from "@/lib/runner/runtimes/claude-code-policy";
import { DEFAULT_REPLY, type ModelReply, type ModelRequest, type RequestBlock } from "./model-server";

/**
 * The scripted team of `npm run demo` (issue 11 §5) and of its end-to-end test: what the stand-in model
 * answers each agent, so that real Claude Code sessions play a whole goal with no model key.
 *
 * - The coordinator declares a plan of two tasks (`research`, `draft`) and spawns both agents.
 * - The researcher asks the owner a question (`ask_user`); it reaches the coordinator, which passes it
 *   up to the owner (`escalate_question`), where it shows in the browser. Once answered, the researcher
 *   hands in its work (`signal_review`).
 * - The writer hands in its work at once.
 * - The coordinator approves each review (`terminate_child`) and, with both done, hands the goal to the
 *   owner (`signal_review` as the root agent): the owner's Approve completes the goal.
 *
 * Robustness: every reply is computed from the whole conversation the request carries (which hub tools
 * were already called and how they answered, which inbox messages arrived), never from a turn count. A
 * retried request gets the same answer, messages that arrive in another order or merged into one turn
 * are all acted on, a failed call is retried at most {@link MAX_TRIES} times, and anything unexpected
 * (a watchdog nudge, the terminate notice, a duplicate question answer) ends the turn with a short text.
 */

/** Roles of the plan's two tasks; the agents are told apart by the identity line of their system prompt. */
export const DEMO_ROLES = { coordinator: "coordinator", researcher: "researcher", writer: "writer" } as const;
/** The researcher's question to the owner, and its options. */
export const DEMO_QUESTION = "Who should the write-up be for?";
export const DEMO_OPTIONS = ["Engineers", "Executives"] as const;
/** How often one failing hub call is tried before the script gives up on it (ends the turn instead). */
export const MAX_TRIES = 3;

type Call = {
  name: string;
  input: Record<string, unknown>;
  result?: { isError: boolean; text: string };
};

/** What happened so far in a session: its hub tool calls (with their results) and the user texts. */
export type Conversation = { calls: Call[]; texts: string[] };

function blocksOf(content: ModelRequest["messages"][number]["content"]): RequestBlock[] {
  return typeof content === "string"
    ? [{ type: "text", text: content }]
    : Array.isArray(content)
      ? content
      : [];
}

function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((b) => (typeof b?.text === "string" ? b.text : "")).join("\n");
}

export function conversation(req: ModelRequest): Conversation {
  const calls: Call[] = [];
  const byId = new Map<string, Call>();
  const texts: string[] = [];
  for (const m of req.messages) {
    for (const b of blocksOf(m.content)) {
      if (m.role === "assistant" && b.type === "tool_use") {
        const call: Call = {
          name: b.name ?? "",
          input: (b.input && typeof b.input === "object" ? b.input : {}) as Record<string, unknown>,
        };
        calls.push(call);
        if (b.id) byId.set(b.id, call);
      } else if (m.role === "user" && b.type === "tool_result") {
        const call = byId.get(b.tool_use_id ?? "");
        if (call) call.result = { isError: b.is_error === true, text: resultText(b.content) };
      } else if (m.role === "user" && b.type === "text" && b.text) {
        texts.push(b.text);
      }
    }
  }
  return { calls, texts };
}

type Match = (input: Record<string, unknown>) => boolean;
const any: Match = () => true;

const succeeded = (c: Conversation, tool: string, match: Match = any) =>
  c.calls.filter((x) => x.name === hubTool(tool) && x.result && !x.result.isError && match(x.input));

const failures = (c: Conversation, tool: string, match: Match = any) =>
  c.calls.filter((x) => x.name === hubTool(tool) && x.result?.isError && match(x.input)).length;

/** Call `tool` unless it already succeeded (for this `match`) or failed MAX_TRIES times. */
function once(
  c: Conversation,
  tool: string,
  input: Record<string, unknown>,
  text: string,
  match: Match = any,
): ModelReply | undefined {
  if (succeeded(c, tool, match).length > 0) return undefined;
  if (failures(c, tool, match) >= MAX_TRIES) return undefined;
  return { text, tools: [{ name: hubTool(tool), input }] };
}

const allText = (c: Conversation) => c.texts.join("\n");

/** The identity line the hub appends to every launched agent's system prompt (launch-jobs.ts). */
const roleOf = (system: string) => system.match(/You are agent \S+ \(#\d+\), role ([^,]+),/)?.[1];

function coordinator(c: Conversation, system: string): ModelReply {
  const text = allText(c);
  // The goal message (the first turn), else the identity line (a session relaunched without its history).
  const goal =
    text.match(/\[GOAL #\d+\] (.+)/)?.[1]?.trim() ?? system.match(/on goal #\d+ "([^"]*)"/)?.[1]?.trim();
  if (!goal) return { text: "Waiting for my goal." };

  const step =
    once(
      c,
      "declare_plan",
      {
        tasks: [
          {
            id: "research",
            role: DEMO_ROLES.researcher,
            skill: "researcher",
            task: `Research what "${goal}" needs. Ask the owner who the write-up is for before you start.`,
            description: "Finds out what the goal needs, asking the owner where only they can decide.",
          },
          {
            id: "draft",
            role: DEMO_ROLES.writer,
            skill: "engineer",
            task: `Draft the outline of the write-up for "${goal}".`,
            description: "Drafts the write-up's outline.",
          },
        ],
      },
      `Goal received: "${goal}". I will split it into two tasks, research and a draft, and spawn one agent for each.`,
    ) ??
    once(
      c,
      "spawn_agent",
      { task_id: "research" },
      "Spawning the researcher.",
      (i) => i.task_id === "research",
    ) ??
    once(c, "spawn_agent", { task_id: "draft" }, "Spawning the writer.", (i) => i.task_id === "draft");
  if (step) return step;

  // Every question that reached me goes up to the owner: only they know who the write-up is for.
  for (const [, qid] of text.matchAll(/\[INBOX QUESTION\] qid=(\S+)/g)) {
    const up = once(
      c,
      "escalate_question",
      { qid, reason: "Only the owner knows who the write-up is for." },
      `The researcher asks something only the owner can decide: passing question ${qid} up.`,
      (i) => i.qid === qid,
    );
    if (up) return up;
  }

  // Every review handed in is approved (terminate_child is the approval).
  for (const [, name, id] of text.matchAll(/\[REVIEW\] from (\S+) \(agent (\d+)\)/g)) {
    const ok = once(
      c,
      "terminate_child",
      { agent_id: id },
      `${name} handed in its work: approved.`,
      (i) => String(i.agent_id) === id,
    );
    if (ok) return ok;
  }

  const approved = new Set(succeeded(c, "terminate_child").map((x) => String(x.input.agent_id)));
  if (approved.size >= 2) {
    const done = once(
      c,
      "signal_review",
      {
        detail: `[REVIEW REQUIRED] "${goal}": the research (with the owner's answer) and the draft are done and approved. Approve to complete the goal.`,
      },
      "Both tasks are done and approved. Handing the goal to the owner for the final review.",
    );
    if (done) return done;
    return { text: "The goal is with the owner for the final review." };
  }
  return { text: "The team is working; I will review their work as it comes in." };
}

/** The answer the owner gave, from the ask_user result or from the inbox copy of the answer. */
function ownerAnswer(c: Conversation): string | undefined {
  const asked = succeeded(c, "ask_user")[0];
  const fromCall = asked?.result?.text.match(/"answer_text"\s*:\s*"((?:[^"\\]|\\.)*)"/)?.[1];
  if (fromCall !== undefined) return JSON.parse(`"${fromCall}"`) as string;
  const copy = allText(c).match(/\[QUESTION ANSWERED\][^\n]*\n([\s\S]*?)(?:\n\n|$)/)?.[1];
  return copy?.trim() || undefined;
}

function researcher(c: Conversation): ModelReply {
  if (!allText(c).includes("[TASK ASSIGNMENT]")) return { text: "Waiting for my task." };
  const answer = ownerAnswer(c);
  const declined =
    allText(c).includes("[QUESTION DECLINED]") ||
    c.calls.some((x) => x.name === hubTool("ask_user") && x.result?.text.includes("user_declined"));
  if (answer === undefined && !declined) {
    // Asked again only when a call failed without an answer (a cut call re-attaches to the same question).
    return (
      once(
        c,
        "ask_user",
        {
          questions: [
            {
              question: DEMO_QUESTION,
              header: "Audience",
              multiSelect: false,
              options: DEMO_OPTIONS.map((label) => ({
                label,
                description: label === "Engineers" ? "Technical detail first." : "Outcomes and costs first.",
              })),
            },
          ],
          context: "The research depends on who reads the result.",
        },
        "Before I research, I need to know who the write-up is for: asking the owner.",
      ) ?? { text: "Waiting for the owner's answer." }
    );
  }
  const audience = answer ?? "the owner declined to say; written for a general reader";
  return (
    once(
      c,
      "signal_review",
      {
        detail: `[REVIEW REQUIRED] Research done for the audience the owner chose (${audience}): three sources summarised, open points listed.`,
      },
      `Audience: ${audience}. Research done; handing it in for review.`,
    ) ?? { text: "My work is with my leader for review." }
  );
}

function writer(c: Conversation): ModelReply {
  if (!allText(c).includes("[TASK ASSIGNMENT]")) return { text: "Waiting for my task." };
  return (
    once(
      c,
      "signal_review",
      { detail: "[REVIEW REQUIRED] Outline drafted: introduction, findings, recommendations." },
      "Outline drafted; handing it in for review.",
    ) ?? { text: "My work is with my leader for review." }
  );
}

/** The stand-in's script for the demo team (a function of the request; see the module comment). */
export function demoTeamScript(req: ModelRequest): ModelReply {
  const role = roleOf(req.system);
  // Requests that are not an agent's turn (Claude Code's own side requests) get the default text.
  if (!role || !req.tools.some((t) => t.startsWith(hubTool("")))) return DEFAULT_REPLY;
  const c = conversation(req);
  if (req.lastUserText.includes("[TERMINATE]")) return { text: "Stopping: my work is done." };
  if (role === DEMO_ROLES.coordinator) return coordinator(c, req.system);
  if (role === DEMO_ROLES.researcher) return researcher(c);
  if (role === DEMO_ROLES.writer) return writer(c);
  return DEFAULT_REPLY;
}
