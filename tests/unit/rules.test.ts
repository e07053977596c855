// Pure rules: slugs, credentials, origins, error mapping, agent status.
import assert from "node:assert/strict";
import { test } from "node:test";
import { z } from "zod";
import { agentStatus } from "@/lib/domain/agents/agents";
import { nextFreeSlug, slugify } from "@/lib/domain/goals/create-goal";
import { zodToDomain } from "@/lib/errors";
import { AGENT_KEY_PREFIX, hashSecret, newSecret } from "@/lib/ids";

test("slugify lowercases, joins words with '-', trims, and never returns empty", () => {
  assert.equal(slugify("Keep the Docs  Accurate!"), "keep-the-docs-accurate");
  assert.equal(slugify("  --Héllo, Wörld--  "), "hello-world");
  assert.equal(slugify("!!!"), "goal");
  assert.ok(slugify("x".repeat(300)).length <= 48);
});

test("nextFreeSlug takes base, then -2, -3, … skipping taken ones", () => {
  assert.equal(nextFreeSlug("a", []), "a");
  assert.equal(nextFreeSlug("a", ["a"]), "a-2");
  assert.equal(nextFreeSlug("a", ["a", "a-2", "a-3"]), "a-4");
  assert.equal(nextFreeSlug("a", ["a", "a-3"]), "a-2");
});

test("credentials: prefixed, 256 random bits, stored as a SHA-256 hash", () => {
  const k = newSecret(AGENT_KEY_PREFIX);
  assert.match(k.secret, /^sb_agent_[A-Za-z0-9_-]{43}$/);
  assert.equal(k.hash, hashSecret(k.secret));
  assert.match(k.hash, /^[0-9a-f]{64}$/);
  assert.ok(!k.display.includes(k.secret.slice(20)), "the display prefix does not reveal the key");
  assert.notEqual(newSecret(AGENT_KEY_PREFIX).secret, k.secret);
});

test("zod issues become one invalid_input error naming each field", () => {
  const schema = z.strictObject({ to: z.string(), n: z.number().max(3) });
  const r = schema.safeParse({ to: 1, n: 9, extra: true });
  assert.ok(!r.success);
  const e = zodToDomain(r.error);
  assert.equal(e.code, "invalid_input");
  assert.match(e.message, /to: /);
  assert.match(e.message, /n: /);
  assert.match(e.message, /extra/);
});

test("agent status: terminated wins, then termination_requested, then review_pending", () => {
  const base = {
    status: "active",
    terminateConsumed: false,
    terminationRequested: false,
    reviewPending: false,
  };
  assert.equal(agentStatus(base), "active");
  assert.equal(agentStatus({ ...base, reviewPending: true }), "review_pending");
  assert.equal(
    agentStatus({ ...base, reviewPending: true, terminationRequested: true }),
    "termination_requested",
  );
  assert.equal(agentStatus({ ...base, terminateConsumed: true, reviewPending: true }), "terminated");
  assert.equal(agentStatus({ ...base, terminatePostedAt: new Date() }), "terminating");
});
