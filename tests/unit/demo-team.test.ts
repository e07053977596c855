// The demo team's script (lib/standin/demo-team.ts) decides each reply from the whole conversation: the
// same request gets the same reply (a retried request), messages merged into one turn or arriving in another
// order are all acted on, a failing call is given up after MAX_TRIES, the terminate notice ends the turn.
import assert from "node:assert/strict";
import { test } from "node:test";
import { hubTool } from "@/lib/runner/runtimes/claude-code-policy";
import { DEMO_ROLES, demoTeamScript, MAX_TRIES } from "@/lib/standin/demo-team";
import { type ModelReply, parseRequest, type RequestMessage } from "@/lib/standin/model-server";

const TOOLS = [
  "declare_plan",
  "spawn_agent",
  "escalate_question",
  "terminate_child",
  "signal_review",
  "ask_user",
].map((t) => ({ name: hubTool(t), input_schema: { type: "object" } }));

const system = (role: string, id = 1) =>
  `A skill prompt.\n\nYou are agent ${role}-ab12 (#${id}), role ${role}, on goal #1 "Docs write-up". Your leader: the owner.`;

/** A conversation under construction: user texts, the script's own tool calls and their results. */
function session(role: string) {
  const messages: RequestMessage[] = [];
  let n = 0;
  const s = {
    user(...texts: string[]) {
      messages.push({ role: "user", content: texts.map((text) => ({ type: "text", text })) });
      return s;
    },
    /** Record the script's reply as the assistant turn, with `results` for its tool calls (in order). */
    answer(reply: ModelReply, ...results: { text: string; isError?: boolean }[]) {
      const calls = (reply.tools ?? []).map((t) => ({ ...t, id: `toolu_${++n}` }));
      messages.push({
        role: "assistant",
        content: [
          ...(reply.text ? [{ type: "text", text: reply.text }] : []),
          ...calls.map((t) => ({ type: "tool_use", id: t.id, name: t.name, input: t.input ?? {} })),
        ],
      });
      if (calls.length > 0)
        messages.push({
          role: "user",
          content: calls.map((t, i) => ({
            type: "tool_result",
            tool_use_id: t.id,
            content: [{ type: "text", text: results[i]?.text ?? "{}" }],
            is_error: results[i]?.isError === true,
          })),
        });
      return s;
    },
    reply(): ModelReply {
      return demoTeamScript(parseRequest({ system: system(role), tools: TOOLS, messages, stream: true }));
    },
  };
  return s;
}

const tool = (r: ModelReply) => r.tools?.[0]?.name.replace(hubTool(""), "");
const input = (r: ModelReply) => r.tools?.[0]?.input as Record<string, unknown>;

test("the coordinator plans, spawns both, and a retried request gets the same reply", () => {
  const c = session(DEMO_ROLES.coordinator).user(
    "[Switchboard message m1 …]\n\n[GOAL #1] Docs write-up\n\nDo it.",
  );
  const plan = c.reply();
  assert.equal(tool(plan), "declare_plan");
  assert.deepEqual(c.reply(), plan, "same conversation, same reply");
  c.answer(plan, { text: '{"plan_id":"p1"}' });
  const first = c.reply();
  assert.deepEqual([tool(first), input(first).task_id], ["spawn_agent", "research"]);
  c.answer(first, { text: '{"agent_id":"2"}' });
  const second = c.reply();
  assert.deepEqual([tool(second), input(second).task_id], ["spawn_agent", "draft"]);
  c.answer(second, { text: '{"agent_id":"3"}' });
  assert.equal(c.reply().tools, undefined, "then it waits for its team");
});

test("messages merged into one turn, in any order, are all handled; both approvals lead to the root review", () => {
  const c = session(DEMO_ROLES.coordinator).user("[GOAL #1] Docs write-up");
  c.answer(c.reply(), { text: "{}" });
  c.answer(c.reply(), { text: "{}" });
  c.answer(c.reply(), { text: "{}" });
  // The writer's review and the researcher's question arrive together, the review first.
  c.user(
    '[REVIEW] from writer-1 (agent 3):\n[REVIEW REQUIRED] Outline.\n\nApprove with terminate_child(agent_id="3")',
    "[INBOX QUESTION] qid=q_abc\nAsked by researcher-2 (agent 2).",
  );
  const up = c.reply();
  assert.deepEqual([tool(up), input(up).qid], ["escalate_question", "q_abc"]);
  c.answer(up, { text: '{"ok":true}' });
  const approve = c.reply();
  assert.deepEqual([tool(approve), input(approve).agent_id], ["terminate_child", "3"]);
  c.answer(approve, { text: '{"sentinel_posted":true}' });
  assert.equal(c.reply().tools, undefined, "one child approved: not yet the root review");
  c.user("[REVIEW] from researcher-2 (agent 2):\n[REVIEW REQUIRED] Research.");
  const second = c.reply();
  assert.deepEqual([tool(second), input(second).agent_id], ["terminate_child", "2"]);
  c.answer(second, { text: '{"sentinel_posted":true}' });
  const root = c.reply();
  assert.equal(tool(root), "signal_review");
  assert.match(String(input(root).detail), /^\[REVIEW REQUIRED\]/);
  c.answer(root, { text: '{"recorded":true}' });
  assert.equal(c.reply().tools, undefined, "handed in once");
});

test("a failing call is tried MAX_TRIES times, then the script moves on", () => {
  const c = session(DEMO_ROLES.coordinator).user("[GOAL #1] Docs write-up");
  for (let i = 0; i < MAX_TRIES; i++) {
    const r = c.reply();
    assert.equal(tool(r), "declare_plan");
    c.answer(r, { text: "Error internal_error: failed", isError: true });
  }
  assert.equal(tool(c.reply()), "spawn_agent");
});

test("the researcher asks once, hands in with the owner's answer (from the call or from its inbox copy)", () => {
  const fromCall = session(DEMO_ROLES.researcher).user(
    "[TASK ASSIGNMENT]\nplan_task_id: research\n[/TASK ASSIGNMENT]",
  );
  const ask = fromCall.reply();
  assert.equal(tool(ask), "ask_user");
  fromCall.answer(ask, { text: '{"answers":[],"answer_text":"Audience: Executives"}' });
  const review = fromCall.reply();
  assert.equal(tool(review), "signal_review");
  assert.match(String(input(review).detail), /Audience: Executives/);

  // The call was cut (an error result); the answer then arrives as the inbox copy.
  const cut = session(DEMO_ROLES.researcher).user("[TASK ASSIGNMENT]\n[/TASK ASSIGNMENT]");
  cut.answer(cut.reply(), { text: "Error: request cancelled", isError: true });
  cut.user("[QUESTION ANSWERED] qid=q_1 (answered by __user__)\nAudience: Engineers\n\nanswers: []");
  const after = cut.reply();
  assert.equal(tool(after), "signal_review", "no second question once the answer is in");
  assert.match(String(input(after).detail), /Audience: Engineers/);
});

test("the terminate notice ends the turn without a tool call; unknown agents get the default text", () => {
  const w = session(DEMO_ROLES.writer).user("[TASK ASSIGNMENT]\n[/TASK ASSIGNMENT]");
  w.answer(w.reply(), { text: '{"recorded":true}' });
  w.user("[TERMINATE] Your leader has ended your work.");
  assert.equal(w.reply().tools, undefined);
  assert.equal(session("stranger").user("hello").reply().tools, undefined);
});
