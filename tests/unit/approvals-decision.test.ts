// The approvals form's server action parses the decision with the same schemas as the REST routes: an
// empty reject reason is invalid_input (it used to be truncated and sent on), and nothing is decided.
import assert from "node:assert/strict";
import { test } from "node:test";
import { parseDecision } from "@/app/approvals/decision";
import { type DomainError, toDomainError } from "@/lib/errors";

const hash = "a".repeat(64);
const invalid = (fn: () => unknown): DomainError => {
  try {
    fn();
  } catch (e) {
    const d = toDomainError(e);
    assert.ok(d, "a domain error or a ZodError");
    return d;
  }
  assert.fail("expected the decision to be refused");
};

test("reject: an empty or blank reason is invalid_input naming the reason", () => {
  for (const reason of ["", "   \n "]) {
    const e = invalid(() => parseDecision("reject", hash, reason));
    assert.equal(e.code, "invalid_input");
    assert.equal(e.status, 422);
    assert.deepEqual(
      (e.details.issues as { path: string }[]).map((i) => i.path),
      ["reason"],
    );
  }
});

test("reject: a reason over 4,000 characters is refused, not truncated", () => {
  assert.equal(invalid(() => parseDecision("reject", hash, "x".repeat(4001))).code, "invalid_input");
});

test("a valid decision passes through, trimmed; approve ignores the reason box", () => {
  assert.deepEqual(parseDecision("reject", hash, "  Split the API docs  "), {
    kind: "reject",
    content_hash: hash,
    reason: "Split the API docs",
  });
  assert.deepEqual(parseDecision("approve", hash, ""), { kind: "approve", content_hash: hash });
  assert.equal(invalid(() => parseDecision("approve", "not-a-hash", "")).code, "invalid_input");
});
