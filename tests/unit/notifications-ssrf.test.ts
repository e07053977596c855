// Issue 17: the SSRF guard of webhook and Slack URLs (lib/domain/notifications/ssrf.ts), with the operator's
// default (SWITCHBOARD_NOTIFY_ALLOW_PRIVATE unset): private, loopback and link-local addresses are refused
// when a URL is saved, and at connect time whatever a name resolves to.
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";

delete process.env.SWITCHBOARD_NOTIFY_ALLOW_PRIVATE;
const { checkUrl, guardedLookup, guardedPost, isPrivateAddress } = await import(
  "@/lib/domain/notifications/ssrf"
);

test("private, loopback, link-local, CGNAT and unique-local addresses are private; public ones are not", () => {
  for (const ip of [
    "127.0.0.1",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "::1",
    "::",
    "fd00::1",
    "fe80::1",
    "::ffff:127.0.0.1",
  ]) {
    assert.equal(isPrivateAddress(ip), true, ip);
  }
  for (const ip of ["8.8.8.8", "172.32.0.1", "100.128.0.1", "2606:4700::1111", "::ffff:1.1.1.1"]) {
    assert.equal(isPrivateAddress(ip), false, ip);
  }
});

test("a URL to a private address, localhost, another scheme or with credentials is refused when saved", () => {
  for (const url of [
    "http://127.0.0.1:8080/hook",
    "http://localhost/hook",
    "http://[::1]/x",
    "http://169.254.169.254/latest/meta-data",
    "ftp://example.com/x",
    "https://user:pass@example.com/x",
    "not a url",
  ]) {
    assert.throws(() => checkUrl(url), /invalid|URL|private|http|credentials/i, url);
  }
  assert.equal(checkUrl("https://hooks.slack.com/services/T/B/X").hostname, "hooks.slack.com");
});

test("at call time a name resolving to a loopback address is refused before any connection", async () => {
  let hits = 0;
  const server = http.createServer((_req, res) => {
    hits++;
    res.end("ok");
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const port = (server.address() as AddressInfo).port;
  try {
    // The socket's own lookup (what a saved public name that now resolves to 127.0.0.1 meets).
    const looked = await new Promise<NodeJS.ErrnoException | null>((done) =>
      guardedLookup("localhost", {}, (err) => done(err)),
    );
    assert.equal(looked?.code, "ESSRF");
    await assert.rejects(guardedPost(`http://127.0.0.1:${port}/`, "{}", {}), /private|refused/);
    assert.equal(hits, 0);
  } finally {
    server.close();
  }
});

test("SMTP hosts: a private or loopback relay is refused when saved and at send time, unless the operator lists it", async () => {
  const { checkSmtpHost, smtpAddress } = await import("@/lib/domain/notifications/ssrf");
  const { env } = await import("@/lib/env");
  try {
    for (const host of ["localhost", "127.0.0.1", "10.0.0.5", "[::1]", "169.254.169.254"]) {
      assert.throws(() => checkSmtpHost(host), /private or loopback/, host);
    }
    assert.equal(checkSmtpHost("smtp.example.com"), "smtp.example.com");
    // A name that resolves to loopback (as a public name could after it was saved) is refused at send time.
    await assert.rejects(smtpAddress("localhost"), /refused: localhost resolves to a private address/);
    await assert.rejects(smtpAddress("127.0.0.1"), /private/);
    // The operator's list lets exactly the listed relays through.
    env().SWITCHBOARD_SMTP_HOSTS = "localhost, 127.0.0.1";
    assert.equal(checkSmtpHost("localhost"), "localhost");
    assert.equal(await smtpAddress("127.0.0.1"), "127.0.0.1");
    assert.throws(() => checkSmtpHost("10.0.0.5"), /private or loopback/);
  } finally {
    env().SWITCHBOARD_SMTP_HOSTS = "";
  }
});
