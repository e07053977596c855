// Plan validation and DAG layout, as pure functions.
import assert from "node:assert/strict";
import { test } from "node:test";
import { findCycle, validatePlan } from "@/lib/domain/plans/declare-plan";
import { layers } from "@/lib/domain/teams/goal-team-view";

const t = (id: string, depends_on: string[] = []) => ({
  id,
  role: "r",
  skill: "engineer",
  task: "x",
  description: "",
  depends_on,
});

const codeOf = (fn: () => void) => {
  try {
    fn();
    return undefined;
  } catch (e) {
    return (e as { code?: string }).code;
  }
};

test("validation order: empty, duplicate, self, unknown, cycle", () => {
  assert.equal(
    codeOf(() => validatePlan([])),
    "empty_plan",
  );
  assert.equal(
    codeOf(() => validatePlan([t("a", ["a"]), t("a")])),
    "duplicate_task_id",
  );
  assert.equal(
    codeOf(() => validatePlan([t("a", ["a"])])),
    "self_dep",
  );
  assert.equal(
    codeOf(() => validatePlan([t("a", ["b"])])),
    "unknown_dep",
  );
  assert.equal(
    codeOf(() => validatePlan([t("a", ["b"]), t("b", ["a"])])),
    "cycle_detected",
  );
  assert.equal(
    codeOf(() => validatePlan([t("a"), t("b", ["a"]), t("c", ["a", "b"])])),
    undefined,
  );
});

test("findCycle returns the closed chain of the cycle only", () => {
  assert.deepEqual(findCycle([t("x"), t("a", ["x", "c"]), t("b", ["a"]), t("c", ["b"])]), [
    "a",
    "c",
    "b",
    "a",
  ]);
  assert.equal(findCycle([t("a"), t("b", ["a"]), t("c", ["a", "b"])]), undefined);
});

test("layers: a task sits one column right of its deepest dependency", () => {
  const l = layers([
    { key: "a", deps: [] },
    { key: "b", deps: [] },
    { key: "c", deps: ["a"] },
    { key: "d", deps: ["a", "c"] },
    { key: "e", deps: ["b", "d"] },
  ]);
  assert.deepEqual(Object.fromEntries(l), { a: 0, b: 0, c: 1, d: 2, e: 3 });
});
