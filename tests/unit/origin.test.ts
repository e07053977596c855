// Origin policy: no Origin (not a browser) passes; a browser must come from an allowed origin.
import assert from "node:assert/strict";
import { test } from "node:test";

process.env.PORT = "4321";
process.env.SWITCHBOARD_URL = "https://switchboard.example.com/app";
process.env.SWITCHBOARD_ALLOWED_ORIGINS = "https://ops.example.com, http://localhost:9999";
const { originAllowed } = await import("@/lib/http/origin");

const req = (origin?: string, host = "evil.example:4321") =>
  new Request("http://127.0.0.1:4321/mcp", { headers: { host, ...(origin ? { origin } : {}) } });

test("requests without Origin are allowed", () => assert.equal(originAllowed(req()), true));

test("own origins and configured extras are allowed", () => {
  for (const o of [
    "http://localhost:4321",
    "http://127.0.0.1:4321",
    "https://switchboard.example.com",
    "https://ops.example.com",
    "http://localhost:9999",
  ]) {
    assert.equal(originAllowed(req(o)), true, o);
  }
});

test("anything else is refused, even when the Host header matches it (DNS rebinding)", () => {
  for (const o of [
    "http://evil.example:4321",
    "http://localhost:4322",
    "null",
    "https://switchboard.example.com.evil.io",
  ]) {
    assert.equal(originAllowed(req(o, new URL(o === "null" ? "http://x" : o).host)), false, o);
  }
});
