// End to end: a coordinator declares a five-task DAG and works through it with concurrently acting
// agents over MCP: spawn what is ready, children work and signal review, the leader approves or sends
// rework (under the review gate), approvals unlock the next tasks, finished children end.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import { errorCode, type InProcess, sc, startInProcess } from "../helpers/in-process";
import {
  type Agent,
  agentClient,
  call,
  events,
  goalWithCoordinator,
  type InboxMsg,
  task,
} from "../helpers/teams";

let server: InProcess;
before(async () => {
  server = await startInProcess({ env: { SWITCHBOARD_WATCHDOG: "0" } });
});
after(async () => {
  await server?.stop();
});

type Inbox = { messages: InboxMsg[]; ack: number };

/** A worker: waits for its assignment, writes its artifact, signals review, redoes on rework, stops on terminate. */
async function worker(a: Agent, log: string[]): Promise<void> {
  let ack: number | undefined;
  let round = 0;
  let artifacts = "";
  let taskId = "";
  for (;;) {
    const r = sc<Inbox>(
      await a.client.callTool({
        name: "read_inbox",
        arguments: { ...(ack === undefined ? {} : { ack }), wait_seconds: 10 },
      }),
    );
    ack = r.ack;
    for (const m of r.messages) {
      if (m.kind === "terminate") {
        // Reading the sentinel ended the agent; its key is refused from now on (agent_retired).
        log.push(`${taskId}:terminated`);
        return;
      }
      if (m.kind === "task_assignment") {
        taskId = /plan_task_id: (\S+)/.exec(m.content)?.[1] ?? "";
        artifacts = /artifacts_path: (\S+)/.exec(m.content)?.[1] ?? "";
      }
      if (m.kind === "task_assignment" || (m.kind === "message" && m.content.startsWith("rework"))) {
        round++;
        fs.writeFileSync(path.join(artifacts, "result.txt"), `${taskId} round ${round}\n`);
        await call(a, "signal_review", { detail: `[REVIEW REQUIRED] ${taskId} round ${round}: result.txt` });
        log.push(`${taskId}:review${round}`);
      }
    }
  }
}

test("a five-task DAG run end to end by concurrently acting agents", async () => {
  const { coordinator: c, goal, token } = await goalWithCoordinator(server);
  const plan = await call<{ plan_path: string }>(c, "declare_plan", {
    tasks: [task("t1"), task("t2"), task("t3", ["t1"]), task("t4", ["t1", "t2"]), task("t5", ["t3", "t4"])],
  });
  const log: string[] = [];
  const workers: Promise<void>[] = [];
  const agentOf = new Map<string, string>();
  const reworked = new Set<string>();
  let gateDenials = 0;

  const spawnReady = async () => {
    const ready = await c.client.callTool({ name: "list_ready", arguments: {} });
    if (errorCode(ready) === "review_gate_closed") return void gateDenials++;
    for (const id of sc<{ ready: string[] }>(ready).ready) {
      const r = await c.client.callTool({ name: "spawn_agent", arguments: { task_id: id } });
      if (errorCode(r) === "review_gate_closed") return void gateDenials++;
      assert.equal(errorCode(r), undefined, JSON.stringify(r));
      const s = sc<{ agent_id: string }>(r);
      agentOf.set(id, s.agent_id);
      log.push(`${id}:spawned`);
      workers.push(agentClient(server, s.agent_id).then((a) => worker(a, log)));
    }
  };

  await spawnReady();
  let ack: number | undefined;
  const deadline = Date.now() + 90_000;
  while (log.filter((l) => l.endsWith(":approved")).length < 5) {
    assert.ok(Date.now() < deadline, `stuck: ${log.join(" ")}`);
    const r = sc<Inbox>(
      await c.client.callTool({
        name: "read_inbox",
        arguments: { ...(ack === undefined ? {} : { ack }), wait_seconds: 5 },
      }),
    );
    ack = r.ack;
    for (const m of r.messages.filter((x) => x.kind === "review_report")) {
      const id = [...agentOf].find(([, agent]) => agent === m.from)?.[0] ?? "";
      // Rework t2 once; approve everything else.
      if (id === "t2" && !reworked.has(id)) {
        reworked.add(id);
        await call(c, "send_message", { to: m.from, content: "rework: be more thorough" });
        log.push(`${id}:rework`);
      } else {
        const t = await c.client.callTool({ name: "terminate_child", arguments: { agent_id: m.from } });
        assert.equal(errorCode(t), undefined, JSON.stringify(t));
        log.push(`${id}:approved`);
      }
    }
    await spawnReady();
  }
  await c.client.callTool({ name: "read_inbox", arguments: { ack } });
  await Promise.all(workers);

  // Every task done; each spawned only after its dependencies were approved.
  assert.deepEqual(await call(c, "list_ready"), { ready: [] });
  const file = JSON.parse(fs.readFileSync(plan.plan_path, "utf8")) as {
    tasks: { id: string; status: string }[];
  };
  assert.deepEqual(
    file.tasks.map((t) => t.status),
    ["done", "done", "done", "done", "done"],
  );
  const evs = await events(server, token, goal.goal_id);
  const at = (name: string, id: string) => evs.findIndex((e) => e.event === name && e.data.task_id === id);
  for (const [t, ds] of [
    ["t3", ["t1"]],
    ["t4", ["t1", "t2"]],
    ["t5", ["t3", "t4"]],
  ] as const) {
    for (const d of ds)
      assert.ok(at("task_done", d) < at("task_spawned", t), `${d} done before ${t} spawned`);
  }
  assert.ok(log.indexOf("t2:review2") > log.indexOf("t2:rework"), "t2 was reworked");
  assert.equal(log.filter((l) => l.endsWith(":terminated")).length, 5);
  assert.equal(evs.filter((e) => e.event === "agent_completed").length, 5);
  assert.equal(evs.filter((e) => e.event === "review.acknowledged").length, 1);
  assert.equal(evs.filter((e) => e.event === "team_created").length, 1);
  assert.equal(
    fs.readFileSync(
      path.join(
        path.dirname(plan.plan_path),
        "..",
        "workspaces",
        `goal-${goal.goal_id}`,
        "artifacts",
        path.basename(plan.plan_path, ".json"),
        "t2",
        "result.txt",
      ),
      "utf8",
    ),
    "t2 round 2\n",
  );
  // The coordinator is done with its plan: it may now request termination (its leader is the owner).
  assert.deepEqual(await call(c, "request_termination", { detail: "all five tasks done" }), {
    recorded: true,
    termination_requested: true,
  });
});
