// The first owner (setup) is created exactly once, even when several setups race (issue 16).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { type InProcess, startInProcess } from "../helpers/in-process";

let server: InProcess;
before(async () => {
  server = await startInProcess();
});
after(async () => {
  await server?.stop();
});

test("concurrent first setups create exactly one owner; the others are told setup is done", async () => {
  const { createOwner, ownerCount } = await import("@/lib/domain/owners/create-owner");
  const results = await Promise.allSettled(
    Array.from({ length: 6 }, (_, i) =>
      createOwner({ email: `first${i}@example.com`, password: "correct-horse-battery" }, { firstOnly: true }),
    ),
  );
  const codes = results.map((r) => (r.status === "fulfilled" ? "ok" : (r.reason as { code?: string }).code));
  assert.equal(codes.filter((c) => c === "ok").length, 1, codes.join(","));
  assert.ok(
    codes.every((c) => c === "ok" || c === "setup_done"),
    codes.join(","),
  );
  assert.equal(await ownerCount(), 1);
  // Once done, setup refuses before it spends the password hash.
  await assert.rejects(
    createOwner({ email: "late@example.com", password: "correct-horse-battery" }, { firstOnly: true }),
    { code: "setup_done" },
  );
});
