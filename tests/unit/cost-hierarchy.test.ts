// Billing-code prefixes and the roll-up of spend over a hierarchy (issue 12): `/` and `.` both separate
// levels; the subtree amounts are summed in micro-cents and floored once; a parent lists before its
// children, siblings by spend.
import assert from "node:assert/strict";
import { test } from "node:test";
import { billingTree, codePath } from "@/lib/domain/usage/billing-tree";
import { type Acc, done, empty } from "@/lib/domain/usage/cost-report";

test("codePath: every prefix at / or ., itself last; a leading or doubled separator starts no level", () => {
  assert.deepEqual(codePath("eng/backend/api"), ["eng", "eng/backend", "eng/backend/api"]);
  assert.deepEqual(codePath("billing.csv"), ["billing", "billing.csv"]);
  assert.deepEqual(codePath("eng/backend.csv"), ["eng", "eng/backend", "eng/backend.csv"]);
  assert.deepEqual(codePath("/root"), ["/root"]);
  assert.deepEqual(codePath("a//b"), ["a", "a//b"]);
  assert.deepEqual(codePath("plain"), ["plain"]);
});

test("billingTree: subtree spend exact in micro-cents, own spend apart, depth first, siblings by spend", () => {
  const acc = (micros: number, type: "api" | "subscription" = "api"): Acc => ({
    ...empty(),
    micros,
    apiMicros: type === "api" ? micros : 0,
    tokens: 1,
    reports: 1,
  });
  const nodes = billingTree(
    new Map([
      ["eng/a", acc(600_000)],
      ["eng/b", acc(600_000, "subscription")],
      ["ops", acc(3_000_000)],
      ["", acc(100_000)],
    ]),
    done,
  );
  assert.deepEqual(
    nodes.map((n) => [n.code, n.name, n.parent, n.depth, n.cents, n.own_cents, n.api_cents, n.tokens]),
    [
      ["ops", "ops", null, 0, 3, 3, 3, 1],
      // 0.6 ¢ + 0.6 ¢ = 1.2 ¢: the parent has 1 ¢ though neither child has a whole cent.
      ["eng", "eng", null, 0, 1, 0, 0, 2],
      ["eng/a", "a", "eng", 1, 0, 0, 0, 1],
      ["eng/b", "b", "eng", 1, 0, 0, 0, 1],
      ["", "(none)", null, 0, 0, 0, 0, 1],
    ],
  );
});
