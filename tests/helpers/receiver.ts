// A local HTTP receiver for the notification tests: records every POST, verifies Standard Webhooks
// signatures with the secret it is given, and answers 500 to the first `failFirst` requests (or hangs them).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export type Received = {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  json: Record<string, unknown>;
  /** Whether the signature verified with `secret` (undefined: no secret set). */
  verified?: boolean;
  /** The status answered; 0: left unanswered. */
  status: number;
};

export type Receiver = {
  url: string;
  received: Received[];
  /** Requests answered 2xx. */
  accepted(): Received[];
  secret?: string;
  failFirst: number;
  /** Leave the first `hangFirst` requests unanswered (a slow or dead endpoint). */
  hangFirst: number;
  close(): Promise<void>;
};

export async function startReceiver(
  opts: { failFirst?: number; hangFirst?: number } = {},
): Promise<Receiver> {
  const r: Receiver = {
    url: "",
    received: [],
    accepted: () => r.received.filter((x) => x.status >= 200 && x.status < 300),
    failFirst: opts.failFirst ?? 0,
    hangFirst: opts.hangFirst ?? 0,
    close: async () => {},
  };
  let seen = 0;
  const server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => {
      body += c;
    });
    req.on("end", () => {
      const n = seen++;
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(body);
      } catch {}
      if (n < r.hangFirst) {
        // Never answered (recorded with status 0).
        r.received.push({ path: req.url ?? "/", headers: req.headers, body, json, status: 0 });
        return;
      }
      let verified: boolean | undefined;
      if (r.secret) {
        try {
          new Webhook(r.secret).verify(body, req.headers as Record<string, string>);
          verified = true;
        } catch {
          verified = false;
        }
      }
      const status = n < r.hangFirst + r.failFirst ? 500 : verified === false ? 401 : 200;
      r.received.push({ path: req.url ?? "/", headers: req.headers, body, json, verified, status });
      res.writeHead(status, { "content-type": "text/plain" });
      res.end(status === 200 ? "ok" : "nope");
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  r.close = () =>
    new Promise<void>((ok) => {
      server.closeAllConnections();
      server.close(() => ok());
    });
  return r;
}
