import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import { env } from "@/lib/env";
import { invalidInput } from "@/lib/errors";

/**
 * Outgoing HTTP for webhooks and Slack, with an SSRF guard: unless the operator allows it
 * (SWITCHBOARD_NOTIFY_ALLOW_PRIVATE=1), no call reaches a loopback, private, link-local, unique-local,
 * CGNAT, multicast or unspecified address. The check runs in the socket's own DNS lookup, on every address
 * the name resolves to, so a name that resolves to a public address when the URL is saved and to a private
 * one when it is called (DNS rebinding) is still refused. Every call has a timeout. SMTP hosts get the same
 * guard, except those the operator lists in SWITCHBOARD_SMTP_HOSTS (a mail relay is often internal).
 */

const BLOCKED_V4: [string, number][] = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
];

const v4 = (ip: string) => ip.split(".").reduce((n, p) => (n << 8) + Number(p), 0) >>> 0;

/** Whether an IP address is one the guard refuses (private, loopback, link-local, …). */
export function isPrivateAddress(ip: string): boolean {
  if (net.isIPv4(ip)) {
    const a = v4(ip);
    return BLOCKED_V4.some(([base, bits]) => {
      const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
      return (a & mask) === (v4(base) & mask);
    });
  }
  if (net.isIPv6(ip)) {
    const x = ip.toLowerCase();
    if (x === "::" || x === "::1") return true;
    const mapped = x.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/);
    if (mapped?.[1]) return isPrivateAddress(mapped[1]);
    return /^(fc|fd|fe8|fe9|fea|feb|ff)/.test(x);
  }
  return true;
}

/** A host as the resolver takes it: an IPv6 literal without its URL brackets. */
const unbracket = (host: string) => host.replace(/^\[|\]$/g, "");

const allowPrivate = () => env().SWITCHBOARD_NOTIFY_ALLOW_PRIVATE === "1";

/** Check a URL's form when it is saved (http/https, no credentials); its addresses are checked per call. */
export function checkUrl(raw: string, field = "url"): URL {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw invalidInput(`${field} is not a URL`, { field });
  }
  if (u.protocol !== "https:" && u.protocol !== "http:")
    throw invalidInput(`${field} must be http(s)`, { field });
  if (u.username || u.password) throw invalidInput(`${field} must not carry credentials`, { field });
  const host = unbracket(u.hostname);
  if (!allowPrivate() && isLocalName(host)) {
    throw invalidInput(
      `${field} points to a private or loopback address (set SWITCHBOARD_NOTIFY_ALLOW_PRIVATE=1 to allow)`,
      { field },
    );
  }
  return u;
}

/** DNS lookup that refuses private addresses (the socket connects only to what this returns). */
export const guardedLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, "", 0);
    const list = addresses as dns.LookupAddress[];
    const bad = list.find((a) => isPrivateAddress(a.address));
    if (bad && !allowPrivate()) {
      const e = new Error(`refused: ${hostname} resolves to a private address (${bad.address})`);
      (e as NodeJS.ErrnoException).code = "ESSRF";
      return callback(e, "", 0);
    }
    if ((options as dns.LookupOptions).all)
      return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
    const first = list[0];
    if (!first) return callback(new Error(`no address for ${hostname}`), "", 0);
    callback(null, first.address, first.family);
  });
};

export type HttpResult = { status: number; body: string };

/** POST `body` to `url` with the guard and a timeout; resolves with any HTTP status, rejects on network errors. */
export function guardedPost(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs = env().SWITCHBOARD_NOTIFY_TIMEOUT_MS,
): Promise<HttpResult> {
  let u: URL;
  try {
    u = checkUrl(url);
  } catch (e) {
    return Promise.reject(e);
  }
  const host = unbracket(u.hostname);
  if (net.isIP(host) && isPrivateAddress(host) && !allowPrivate()) {
    return Promise.reject(new Error(`refused: ${host} is a private address`));
  }
  const mod = u.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const req = mod.request(
      u,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          ...headers,
        },
        lookup: guardedLookup,
        timeout: timeoutMs,
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => {
          if (text.length < 2000) text += c;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text.slice(0, 2000) }));
        res.on("error", reject);
      },
    );
    const timer = setTimeout(() => req.destroy(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
    req.on("timeout", () => req.destroy(new Error(`timed out after ${timeoutMs} ms`)));
    req.on("error", reject);
    req.on("close", () => clearTimeout(timer));
    req.end(body);
  });
}

const isLocalName = (host: string) =>
  host === "localhost" || (net.isIP(host) !== 0 && isPrivateAddress(host));

/** Whether email channels may use this SMTP host wherever it points (the operator's list, or the guard off). */
function smtpHostAllowed(host: string): boolean {
  if (allowPrivate()) return true;
  const listed = env()
    .SWITCHBOARD_SMTP_HOSTS.split(",")
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  return listed.includes(host.trim().toLowerCase());
}

/** Check an SMTP host when it is saved: a literal private address or `localhost` needs the operator's list. */
export function checkSmtpHost(host: string, field = "host"): string {
  const h = unbracket(host);
  if (!smtpHostAllowed(h) && isLocalName(h)) {
    throw invalidInput(
      `${field} points to a private or loopback address (the operator can allow it in SWITCHBOARD_SMTP_HOSTS)`,
      { field },
    );
  }
  return host;
}

/**
 * The address an SMTP connection may open for `host`: the host itself when the operator allows it, else its
 * DNS answer, refused when any address is private (the connection then goes to the checked address, so the
 * name cannot resolve elsewhere in between).
 */
export async function smtpAddress(host: string): Promise<string> {
  const h = unbracket(host);
  if (smtpHostAllowed(h)) return h;
  const list = await dns.promises.lookup(h, { all: true });
  const bad = list.find((a) => isPrivateAddress(a.address));
  if (bad)
    throw new Error(
      `refused: ${h} resolves to a private address (${bad.address}); see SWITCHBOARD_SMTP_HOSTS`,
    );
  const first = list[0];
  if (!first) throw new Error(`no address for ${h}`);
  return first.address;
}
