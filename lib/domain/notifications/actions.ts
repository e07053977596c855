import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
import { read, write } from "@/lib/db";
import { decideProposal } from "@/lib/domain/proposals/decide-proposal";
import { answerAsOwner } from "@/lib/domain/questions/owner-questions";
import { secretKey } from "@/lib/domain/secrets/crypto";
import { env } from "@/lib/env";
import { isDomainError } from "@/lib/errors";
import { absolute } from "./links";

/**
 * Signed, short-lived, single-use action tokens: the links in mails and webhooks and the Slack buttons.
 * A token is `base64url(payload).base64url(HMAC-SHA256)`, keyed by a key derived (HKDF) from the secrets
 * key, and names one card (a question and one of its options, or a proposal) and one owner. Using it
 * records its nonce (`NotificationActionUse`): a second use, like an expired or forged token, acts on
 * nothing and sends the owner to the card in the app. The action itself is the browser's own operation
 * (answerAsOwner, decideProposal): the first answer wins and the others are told it was already answered.
 */
export type ActionPayload =
  | { a: "answer"; q: string; l: string; o: number; n: string; e: number }
  | { a: "approve"; p: number; h: string | null; o: number; n: string; e: number };

type NewAction =
  | { a: "answer"; q: string; l: string; o: number }
  | { a: "approve"; p: number; h: string | null; o: number };

const g = globalThis as { __switchboardActionKey?: Buffer };
function actionKey(): Buffer {
  g.__switchboardActionKey ??= Buffer.from(
    hkdfSync("sha256", secretKey(), Buffer.alloc(0), "switchboard-notification-actions-v1", 32),
  );
  return g.__switchboardActionKey;
}

const b64 = (b: Buffer | string) => Buffer.from(b).toString("base64url");
const mac = (body: string) => createHmac("sha256", actionKey()).update(body).digest();

export function signAction(p: NewAction, ttlS = env().SWITCHBOARD_NOTIFY_ACTION_TTL_S): string {
  const payload = { ...p, n: randomBytes(12).toString("base64url"), e: Math.floor(Date.now() / 1000) + ttlS };
  const body = b64(JSON.stringify(payload));
  return `${body}.${b64(mac(body))}`;
}

export const actionUrl = (token: string) => absolute(`/n/${token}`);

/** The payload of a well-signed token (expired or not), else undefined. */
export function verifyAction(token: string): ActionPayload | undefined {
  const [body, sig] = token.split(".");
  if (!body || !sig || token.length > 2000) return undefined;
  const want = mac(body);
  const got = Buffer.from(sig, "base64url");
  if (got.length !== want.length || !timingSafeEqual(got, want)) return undefined;
  try {
    return JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as ActionPayload;
  } catch {
    return undefined;
  }
}

export type ActionOutcome = {
  outcome: "done" | "already" | "expired" | "reused" | "invalid";
  message: string;
  /** The card in the app (absolute). */
  link: string;
  ownerId?: number;
  label?: string;
};

export const cardLink = (p: ActionPayload) =>
  p.a === "answer"
    ? absolute(`/questions?qid=${encodeURIComponent(p.q)}#question-${p.q}`)
    : absolute("/approvals");

/**
 * What a token would do, for the confirmation page (no side effect): `usable` only when well signed,
 * unexpired and unused; otherwise the page sends the owner to the card in the app.
 */
export async function describeAction(token: string) {
  const p = verifyAction(token);
  if (!p) return { usable: false as const, link: absolute("/questions") };
  const used = await read((u) => u.db.notificationActionUse.findUnique({ where: { nonce: p.n } }));
  return {
    usable: !used && p.e * 1000 >= Date.now(),
    link: cardLink(p),
    text: p.a === "answer" ? `Answer “${p.l}”` : "Approve the proposal",
    detail: p.a === "answer" ? `question ${p.q}` : `proposal #${p.p}`,
  };
}

/** Use a token once: act as its owner, through the browser's own operation. */
export async function redeemAction(token: string, now = new Date()): Promise<ActionOutcome> {
  const p = verifyAction(token);
  if (!p) return { outcome: "invalid", message: "This link is not valid.", link: absolute("/questions") };
  const link = cardLink(p);
  if (p.e * 1000 < now.getTime()) {
    return {
      outcome: "expired",
      message: "This link has expired; answer in Switchboard.",
      link,
      ownerId: p.o,
    };
  }
  const fresh = await write((u) =>
    u.sql.run(
      `INSERT INTO "NotificationActionUse" (nonce, "ownerId", "usedAt") VALUES (?, ?, ?) ON CONFLICT (nonce) DO NOTHING`,
      p.n,
      p.o,
      now,
    ),
  );
  if (!fresh) {
    return {
      outcome: "reused",
      message: "This link was already used; see the card in Switchboard.",
      link,
      ownerId: p.o,
    };
  }
  try {
    if (p.a === "answer") {
      await answerAsOwner(p.o, p.q, [{ selected_labels: [p.l], text: null }]);
      return { outcome: "done", message: `Answered "${p.l}".`, link, ownerId: p.o, label: p.l };
    }
    await decideProposal(p.o, p.p, { kind: "approve", ...(p.h ? { content_hash: p.h } : {}) });
    return { outcome: "done", message: "Approved.", link, ownerId: p.o, label: "Approve" };
  } catch (e) {
    if (isDomainError(e)) {
      const already =
        e.code === "unknown_qid" || e.code === "ErrProposalNotPending" || e.code === "not_holder";
      return {
        outcome: already ? "already" : "invalid",
        message: already ? "It was already answered; see the card in Switchboard." : e.message,
        link,
        ownerId: p.o,
      };
    }
    throw e;
  }
}
