import assert from "node:assert/strict";
import { test } from "node:test";
import {
  clearSignInFailures,
  MAX_FAILURES_PER_ADDRESS,
  MAX_FAILURES_PER_EMAIL,
  recordSignInFailure,
  SIGN_IN_WINDOW_MS,
  signInBlocked,
} from "@/lib/auth/sign-in-limit";

test("sign-in failures block an email after the limit, only within the window; success clears it", () => {
  const t0 = 1_000_000;
  for (let i = 0; i < MAX_FAILURES_PER_EMAIL - 1; i++) recordSignInFailure("a@x.io", `10.0.0.${i}`, t0);
  assert.equal(signInBlocked("a@x.io", "10.9.9.9", t0), false);
  recordSignInFailure("a@x.io", "10.0.0.99", t0);
  assert.equal(signInBlocked("a@x.io", "10.9.9.9", t0 + 1), true);
  assert.equal(signInBlocked("b@x.io", "10.9.9.9", t0 + 1), false, "another email is not blocked");
  assert.equal(signInBlocked("a@x.io", "10.9.9.9", t0 + SIGN_IN_WINDOW_MS), false, "the window slides");
  recordSignInFailure("c@x.io", "1.1.1.1", t0);
  clearSignInFailures("c@x.io");
  assert.equal(signInBlocked("c@x.io", "2.2.2.2", t0), false);
});

test("sign-in failures block an address across emails", () => {
  const t0 = 5_000_000;
  for (let i = 0; i < MAX_FAILURES_PER_ADDRESS; i++) recordSignInFailure(`u${i}@x.io`, "192.0.2.1", t0);
  assert.equal(signInBlocked("fresh@x.io", "192.0.2.1", t0), true);
  assert.equal(signInBlocked("fresh@x.io", "192.0.2.2", t0), false);
});
