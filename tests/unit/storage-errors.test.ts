// PostgreSQL's refusals of a value become invalid_input (lib/errors/storage.ts); anything else stays unknown.
import assert from "node:assert/strict";
import { test } from "node:test";
import { storageValueError, toDomainError } from "@/lib/errors";

const prismaError = (originalCode: string) => ({
  code: "P2020",
  meta: {
    driverAdapterError: { name: "DriverAdapterError", cause: { originalCode, kind: "ValueOutOfRange" } },
  },
});

test("a value PostgreSQL refuses (out of range, NUL) is invalid_input; other database errors are not mapped", () => {
  for (const code of ["22003", "22021", "22P05"]) {
    assert.equal(storageValueError(prismaError(code))?.code, "invalid_input", code);
    assert.equal(toDomainError(prismaError(code))?.code, "invalid_input", code);
  }
  assert.equal(storageValueError(prismaError("23505")), undefined); // a unique violation is a rule, not a value
  assert.equal(storageValueError(prismaError("40001")), undefined);
  assert.equal(storageValueError(new Error("boom")), undefined);
  assert.equal(storageValueError(undefined), undefined);
});
