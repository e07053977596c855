// The error catalogue: one status and hint per code, one zod mapping for every surface, tool error lists
// and annotations generated from definitions, and docs/errors.md in sync with the catalogue.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { z } from "zod";
import {
  CATALOGUE,
  DomainError,
  ERROR_CODES,
  invalidInput,
  notFound,
  toDomainError,
  zodToDomain,
} from "@/lib/errors";
import { actionError, failure } from "@/lib/http/form-state";
import { describeTool } from "@/lib/mcp/registry";
import { buildServer } from "@/lib/mcp/server";
import { TOOLS } from "@/lib/mcp/tools";
import { ERRORS_DOC, renderErrorsDoc } from "../../scripts/lib/docs-errors.mjs";

test("every code has one HTTP status, a meaning, a default hint and at least one surface", () => {
  assert.ok(ERROR_CODES.length >= 50);
  for (const code of ERROR_CODES) {
    const e = CATALOGUE[code];
    assert.ok(Number.isInteger(e.status) && e.status >= 400 && e.status < 600, `${code}: status ${e.status}`);
    assert.ok(e.meaning.length > 10 && e.hint.length > 5, `${code}: meaning and hint`);
    assert.ok(e.surfaces.length > 0, `${code}: surfaces`);
  }
  // The statuses issue 10 unified (docs/decisions.md).
  assert.equal(CATALOGUE.invalid_input.status, 422);
  assert.equal(CATALOGUE.recipient_terminated.status, 409);
  assert.equal(CATALOGUE.unknown_qid.status, 404);
});

test("DomainError: status from the catalogue, the catalogue's hint unless the site gives one", () => {
  const plain = new DomainError("ErrAlreadyClaimed", "taken");
  assert.equal(plain.status, 409);
  assert.equal(plain.hint, CATALOGUE.ErrAlreadyClaimed.hint);
  const own = new DomainError("ErrAlreadyClaimed", "taken", {
    hint: "Pick task 7.",
    details: { task_id: 3 },
  });
  assert.equal(own.hint, "Pick task 7.");
  assert.deepEqual(own.toJSON(), { code: "ErrAlreadyClaimed", message: "taken", details: { task_id: 3 } });
  assert.equal(notFound("goal 3").status, 404);
  assert.equal(invalidInput("x: bad").status, 422);
});

// Type-checked, never run: an unknown code does not compile (`npx tsc --noEmit` fails if it did).
// @ts-expect-error "no_such_code" is not an ErrorCode
export const unknownCodeDoesNotCompile = () => new DomainError("no_such_code", "x");

test("every code of the catalogue is used by the code base (no dead entries)", () => {
  const src = execFileSync(
    "git",
    ["grep", "-h", "-o", "-E", `"[A-Za-z_]+"`, "--", "lib", "app", "cli", ":!lib/errors/catalogue.ts"],
    { encoding: "utf8" },
  );
  const used = new Set(src.split("\n").map((s) => s.slice(1, -1)));
  assert.deepEqual(
    ERROR_CODES.filter((c) => !used.has(c)),
    [],
  );
});

test("one zod mapping: a ZodError becomes invalid_input (422) naming each field in details.issues", () => {
  const schema = z.strictObject({ to: z.string(), n: z.number().max(3) });
  const r = schema.safeParse({ to: 1, n: 9 });
  assert.ok(!r.success);
  const e = toDomainError(r.error);
  assert.ok(e);
  assert.equal(e.code, "invalid_input");
  assert.equal(e.status, 422);
  assert.match(e.message, /^to: .*; n: /);
  assert.deepEqual(
    (e.details.issues as { path: string }[]).map((i) => i.path),
    ["to", "n"],
  );
  assert.deepEqual(zodToDomain(r.error).toJSON(), e.toJSON());
  const d = new DomainError("not_found", "x");
  assert.equal(toDomainError(d), d);
  assert.equal(toDomainError(new Error("boom")), undefined);
});

test("forms: per-field messages come from the mapping's details.issues; other errors are rethrown", () => {
  const schema = z.strictObject({ name: z.string().min(1), tools: z.array(z.string().min(2)) });
  const r = schema.safeParse({ name: "", tools: ["ok", "x"] });
  assert.ok(!r.success);
  const state = failure(r.error, { name: "" });
  assert.equal(state.error, "Please fix the highlighted fields.");
  assert.deepEqual(Object.keys(state.fieldErrors ?? {}).sort(), ["name", "tools"]);
  assert.deepEqual(state.values, { name: "" });
  // A root-level issue is the form's own message.
  const root = z.string().safeParse(3);
  assert.ok(!root.success);
  assert.equal(failure(root.error).error, root.error.issues[0]?.message);
  // A domain error naming its field.
  const named = failure(invalidInput("coordinator_config: unknown", { field: "coordinator_config" }));
  assert.deepEqual(named.fieldErrors, { coordinator_config: "coordinator_config: unknown" });
  assert.equal(actionError(new DomainError("recipient_terminated", "closed")), "closed");
  assert.match(actionError(r.error), /^name: /);
  assert.throws(() => failure(new Error("boom")), /boom/);
  assert.throws(() => actionError(new Error("boom")), /boom/);
});

test("tool descriptions: the Errors part is generated from each tool's errors, none is hand-written", () => {
  for (const t of TOOLS) {
    assert.doesNotMatch(t.description, /Errors?:/, `${t.name}: no hand-written error list`);
    const text = describeTool(t);
    for (const code of t.errors) {
      assert.ok(
        text.includes(`- ${code}: ${CATALOGUE[code].meaning} ${CATALOGUE[code].hint}`),
        `${t.name} describes ${code}`,
      );
    }
    if (t.errors.length === 0) assert.equal(text, t.description);
  }
  const byName = new Map(TOOLS.map((t) => [t.name, t]));
  assert.deepEqual(byName.get("send_message")?.errors, [
    "unknown_recipient",
    "task_mismatch",
    "recipient_terminated",
    "inbox_full",
    // issue 13: the autonomy gate holds a supervised agent's message outside its team.
    "approval_required",
  ]);
});

test("tools/list annotations: readOnlyHint, destructiveHint and idempotentHint as each tool declares them", async () => {
  const [a, b] = InMemoryTransport.createLinkedPair();
  const listed = [];
  for (const caller of [
    { kind: "agent", agentId: 1, goalId: 1, name: "a" },
    { kind: "owner", userId: 1, email: "o@example.com" },
  ]) {
    const [clientSide, serverSide] = caller.kind === "agent" ? [a, b] : InMemoryTransport.createLinkedPair();
    await buildServer(caller as never).connect(serverSide);
    const client = new Client({ name: "t", version: "1" });
    await client.connect(clientSide);
    listed.push(...(await client.listTools()).tools);
    await client.close();
  }
  const byName = new Map(listed.map((t) => [t.name, t]));
  for (const t of TOOLS) {
    const l = byName.get(t.name);
    assert.ok(l, t.name);
    assert.deepEqual(
      l.annotations,
      {
        title: t.title,
        readOnlyHint: t.readOnly,
        destructiveHint: t.destructive,
        idempotentHint: t.idempotent,
      },
      t.name,
    );
    assert.equal(l.description, describeTool(t));
    if (t.readOnly) assert.ok(!t.destructive && t.idempotent, `${t.name}: read-only is safe to repeat`);
  }
  for (const name of ["terminate_child", "remove_plan", "request_termination"])
    assert.equal(byName.get(name)?.annotations?.destructiveHint, true, name);
  for (const name of ["ask_user", "propose_task_tree", "terminate_child", "whoami"])
    assert.equal(byName.get(name)?.annotations?.idempotentHint, true, name);
  for (const name of ["send_message", "claim_task", "spawn_agent"])
    assert.equal(byName.get(name)?.annotations?.idempotentHint, false, name);
});

test("docs/errors.md is what `npm run docs:errors` generates", () => {
  const committed = fs.readFileSync(ERRORS_DOC, "utf8");
  assert.equal(committed, renderErrorsDoc(), "docs/errors.md is out of date: run npm run docs:errors");
});
