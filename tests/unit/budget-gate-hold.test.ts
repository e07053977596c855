// Every tool the budget gate names re-checks the pause inside its own write unit (issue 12): the early
// check before the tool is a read, and a pause committing between it and the tool's unit would let the call
// through (tests/integration/budget-gate-race.test.ts shows it for claim_task). A tool added to
// BUDGET_GATED without `holdGoalUnpaused(u, caller.goalId, "<tool>"…)` in lib/domain fails here.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { BUDGET_GATED } from "@/lib/domain/usage/budget-gate";

const ROOT = path.resolve(import.meta.dirname, "../..");

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p) : p.endsWith(".ts") ? [p] : [];
  });
}

test("every budget-gated tool holds the goal unpaused in its own unit", () => {
  const text = sources(path.join(ROOT, "lib/domain"))
    .map((f) => fs.readFileSync(f, "utf8"))
    .join("\n");
  const missing = [...BUDGET_GATED].filter(
    (tool) => !text.includes(`holdGoalUnpaused(u, caller.goalId, "${tool}"`),
  );
  assert.deepEqual(missing, []);
});
