// A secret from a browser form (lib/http/form-state.ts formSecretValue): an uploaded file stays bytes — a
// binary file is not decoded as text — and without a file the pasted text is the value.
import assert from "node:assert/strict";
import { test } from "node:test";
import { formSecretValue } from "@/lib/http/form-state";

test("an uploaded file is its bytes, exactly; no file: the pasted text", async () => {
  const bytes = Buffer.from([0, 0xff, 0xfe, 0xc3, 0x28, 13, 10]);
  const withFile = new FormData();
  withFile.set("value", "ignored");
  withFile.set("file", new File([bytes], "key.p12"));
  const v = await formSecretValue(withFile);
  assert.ok(Buffer.isBuffer(v));
  assert.deepEqual(v, bytes);

  const text = new FormData();
  text.set("value", "pasted");
  text.set("file", new File([], "")); // a file input left empty
  assert.equal(await formSecretValue(text), "pasted");
});
