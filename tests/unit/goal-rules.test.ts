// Pure rules of goals: the reputation score, the ancestry cap, content hashes and the tree schema.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  ancestrySnapshot,
  canonicalJson,
  contentHash,
  flatten,
  renderTree,
  taskNode,
} from "@/lib/domain/proposals/task-tree";
import { domainOf, NEUTRAL_SCORE, scoreOf } from "@/lib/domain/reputation/reputation";

const DAY = 86_400_000;

test("reputation: 0.5 with no evidence, decayed sum clamped to [0,1]", () => {
  const now = Date.now();
  assert.equal(scoreOf([], now), NEUTRAL_SCORE);
  assert.equal(scoreOf([{ delta: 1, weight: 1, createdAt: new Date(now) }], now), 1);
  assert.equal(scoreOf([{ delta: -1, weight: 1, createdAt: new Date(now) }], now), 0);
  // 30 days halve a row's weight.
  const half = scoreOf([{ delta: 0.8, weight: 1, createdAt: new Date(now - 30 * DAY) }], now);
  assert.ok(Math.abs(half - 0.4) < 1e-9, String(half));
  const mixed = scoreOf(
    [
      { delta: 1, weight: 1, createdAt: new Date(now - 60 * DAY) },
      { delta: 0.35, weight: 1, createdAt: new Date(now) },
    ],
    now,
  );
  assert.ok(Math.abs(mixed - 0.6) < 1e-9, String(mixed));
  assert.equal(domainOf(null), "general");
  assert.equal(domainOf("  "), "general");
  assert.equal(domainOf("docs"), "docs");
});

test("ancestry snapshot: at most 16 KB, nearest ancestors kept", () => {
  const ancestors = Array.from({ length: 30 }, (_, i) => ({
    id: i + 1,
    title: `Level ${i}`,
    description: "d".repeat(5000),
    acceptance_criteria: "a".repeat(5000),
  }));
  const snap = ancestrySnapshot(ancestors);
  assert.ok(Buffer.byteLength(snap) <= 16 * 1024);
  const kept = JSON.parse(snap) as { title: string }[];
  assert.equal(kept.at(-1)?.title, "Level 29");
  assert.ok(kept.length > 1 && kept.length < 30);
  assert.equal(ancestrySnapshot([]), "[]");
});

test("content hash ignores key order; the tree schema is strict and recursive", () => {
  assert.equal(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] }), '{"a":[{"c":3,"d":2}],"b":1}');
  assert.equal(contentHash({ x: 1, y: 2 }), contentHash({ y: 2, x: 1 }));
  assert.notEqual(contentHash({ x: 1 }), contentHash({ x: 2 }));
  const tree = taskNode.parse({
    title: "Root",
    description: "The root of the tree.",
    children: [
      { title: "Kid", description: "A child of the root.", verifier_config: { kind: "peer", agent_id: 4 } },
    ],
  });
  assert.deepEqual(
    flatten(tree).map((n) => [n.node.title, n.depth, n.parent]),
    [
      ["Root", 0, null],
      ["Kid", 1, 0],
    ],
  );
  assert.match(renderTree(tree), /- Kid \[verifier peer #4\]/);
  for (const bad of [
    { title: "ab", description: "long enough text" },
    { title: "Root", description: "short" },
    { title: "Root", description: "long enough text", owner: 1 },
    { title: "Root", description: "long enough text", verifier_config: { kind: "peer" } },
    { title: "Root", description: "long enough text", verifier_config: { kind: "command", cmd: "" } },
    { title: "Root", description: "long enough text", children: [{ title: "x" }] },
  ]) {
    assert.equal(taskNode.safeParse(bad).success, false, JSON.stringify(bad));
  }
});
