import { read } from "@/lib/db";
import { actionUrl, signAction } from "./actions";
import type { NotificationItem, NotificationKind } from "./kinds";
import { absolute } from "./links";

/**
 * What a delivery says: its notifications rendered once (goal, who waits, one line, deep link, a
 * question's options with signed action links), then shaped per channel: the webhook JSON payload,
 * Slack Block Kit, a mail's text and HTML. docs/notifications.md is the payload reference.
 */

type Row = {
  id: number;
  ownerId: number;
  goalId: number | null;
  kind: string;
  summary: string;
  link: string;
  dataJson: string;
  createdAt: Date;
};

export async function loadItems(ids: number[]): Promise<NotificationItem[]> {
  if (!ids.length) return [];
  return read(async (u) => {
    const rows = (await u.db.notification.findMany({
      where: { id: { in: ids } },
      orderBy: { id: "asc" },
    })) as Row[];
    const goalIds = [...new Set(rows.flatMap((r) => (r.goalId ? [r.goalId] : [])))];
    const goals = new Map(
      (await u.db.goal.findMany({ where: { id: { in: goalIds } }, select: { id: true, title: true } })).map(
        (g) => [g.id, g.title],
      ),
    );
    const data = rows.map((r) => JSON.parse(r.dataJson) as Record<string, unknown>);
    const agentIds = [...new Set(data.flatMap((d) => (typeof d.agent_id === "number" ? [d.agent_id] : [])))];
    const agents = new Map(
      (await u.db.agent.findMany({ where: { id: { in: agentIds } }, select: { id: true, name: true } })).map(
        (a) => [a.id, a.name],
      ),
    );
    const qids = data.flatMap((d) => (typeof d.qid === "string" ? [d.qid] : []));
    const questions = new Map(
      (
        await u.db.question.findMany({
          where: { id: { in: qids } },
          select: { id: true, status: true, questionsJson: true, holderId: true },
        })
      ).map((q) => [q.id, q]),
    );
    const pmids = data.flatMap((d) =>
      typeof d.proposal_message_id === "number" ? [d.proposal_message_id] : [],
    );
    const proposals = new Map(
      (
        await u.db.proposal.findMany({
          where: { messageId: { in: pmids } },
          select: { messageId: true, contentHash: true, status: true },
        })
      ).map((p) => [p.messageId, p]),
    );
    return rows.map((r, i): NotificationItem => {
      const d = data[i] ?? {};
      const agentId = typeof d.agent_id === "number" ? d.agent_id : null;
      const item: NotificationItem = {
        id: r.id,
        kind: r.kind as NotificationKind,
        goal_id: r.goalId,
        goal_title: r.goalId ? (goals.get(r.goalId) ?? null) : null,
        summary: r.summary,
        link: absolute(r.link),
        created_at: r.createdAt.toISOString(),
        waiting: agentId === null ? null : { agent_id: agentId, name: agents.get(agentId) ?? null },
      };
      const q = typeof d.qid === "string" ? questions.get(d.qid) : undefined;
      if (q) {
        const subs = JSON.parse(q.questionsJson) as {
          question: string;
          header: string;
          multiSelect: boolean;
          options: { label: string; description: string; requires_text?: boolean }[];
        }[];
        // Buttons only where one click is a whole answer: one single-choice sub-question.
        const oneClick = subs.length === 1 && q.status === "pending" && q.holderId === null;
        item.question = {
          qid: q.id,
          status: q.status,
          questions: subs.map((s) => ({
            question: s.question,
            header: s.header,
            multi_select: s.multiSelect,
            options: s.options.map((o) => ({
              label: o.label,
              description: o.description,
              action_url:
                oneClick && !s.multiSelect && !o.requires_text
                  ? actionUrl(signAction({ a: "answer", q: q.id, l: o.label, o: r.ownerId }))
                  : null,
            })),
          })),
        };
      }
      const p = typeof d.proposal_message_id === "number" ? proposals.get(d.proposal_message_id) : undefined;
      if (p?.messageId) {
        item.proposal = {
          proposal_message_id: p.messageId,
          approve_url:
            p.status === "pending"
              ? actionUrl(signAction({ a: "approve", p: p.messageId, h: p.contentHash, o: r.ownerId }))
              : null,
        };
      }
      return item;
    });
  });
}

const LABEL: Record<NotificationKind, string> = {
  question: "Question",
  approval: "Awaiting approval",
  secret_request: "Secret requested",
  budget: "Budget",
  crash: "Agent crashed",
  quarantine: "Agent quarantined",
  escalation: "Escalation",
  review: "Ready for review",
  goal_completed: "Goal completed",
  goal_stuck: "Goal stuck",
  channel_disabled: "Channel disabled",
};
export const kindLabel = (k: NotificationKind) => LABEL[k] ?? k;

/** The Standard Webhooks body: `{type, timestamp, data}`. */
export function webhookPayload(
  d: { msgId: string; goalId: number; test?: boolean },
  items: NotificationItem[],
  at = new Date(),
) {
  const type = d.test
    ? "notification.test"
    : items.length === 1
      ? `notification.${items[0]?.kind}`
      : "notification.digest";
  return {
    type,
    timestamp: at.toISOString(),
    data: {
      delivery_id: d.msgId,
      goal_id: d.goalId || null,
      goal_title: items[0]?.goal_title ?? null,
      count: items.length,
      notifications: items,
    },
  };
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const who = (i: NotificationItem) =>
  i.waiting ? `${i.waiting.name ?? "agent"} (#${i.waiting.agent_id})` : "the system";

/**
 * Slack Block Kit. With `interactive` (the channel has a Slack app's signing secret), one-click options and
 * approvals become buttons whose `value` is a signed action token; otherwise they are links.
 */
export function slackMessage(items: NotificationItem[], opts: { interactive: boolean; test?: boolean }) {
  if (opts.test) {
    return {
      text: "Switchboard test message",
      blocks: [{ type: "section", text: { type: "mrkdwn", text: "*Switchboard*: this channel works." } }],
    };
  }
  const blocks: Record<string, unknown>[] = [];
  const goal = items[0]?.goal_title;
  const title =
    items.length === 1 ? kindLabel(items[0]?.kind as NotificationKind) : `${items.length} updates`;
  blocks.push({
    type: "header",
    text: { type: "plain_text", text: `${title}${goal ? ` · ${goal}` : ""}`.slice(0, 150) },
  });
  for (const i of items.slice(0, 15)) {
    blocks.push({
      type: "section",
      block_id: `n${i.id}`,
      text: {
        type: "mrkdwn",
        text: `*${kindLabel(i.kind)}* from ${esc(who(i))}\n${esc(i.summary)}`.slice(0, 3000),
      },
    });
    const elements: Record<string, unknown>[] = [];
    for (const sub of i.question?.questions ?? []) {
      for (const o of sub.options) {
        if (!o.action_url) continue;
        const token = o.action_url.slice(o.action_url.lastIndexOf("/") + 1);
        elements.push(
          opts.interactive
            ? {
                type: "button",
                text: { type: "plain_text", text: o.label.slice(0, 75) },
                action_id: `answer:${elements.length}`,
                value: token,
              }
            : {
                type: "button",
                text: { type: "plain_text", text: o.label.slice(0, 75) },
                action_id: `link:${elements.length}`,
                url: o.action_url,
              },
        );
      }
    }
    if (i.proposal?.approve_url) {
      const url = i.proposal.approve_url;
      elements.push(
        opts.interactive
          ? {
              type: "button",
              style: "primary",
              text: { type: "plain_text", text: "Approve" },
              action_id: "approve",
              value: url.slice(url.lastIndexOf("/") + 1),
            }
          : {
              type: "button",
              style: "primary",
              text: { type: "plain_text", text: "Approve" },
              action_id: "approve-link",
              url,
            },
      );
    }
    elements.push({
      type: "button",
      text: { type: "plain_text", text: "Answer in Switchboard" },
      action_id: `open:${i.id}`,
      url: i.link,
    });
    blocks.push({ type: "actions", block_id: `a${i.id}`, elements: elements.slice(0, 25) });
  }
  if (items.length > 15) {
    blocks.push({
      type: "context",
      elements: [{ type: "mrkdwn", text: `…and ${items.length - 15} more in Switchboard.` }],
    });
  }
  const text =
    items.length === 1 ? `${title}: ${items[0]?.summary ?? ""}` : `${items.length} Switchboard updates`;
  return { text: text.slice(0, 3000), blocks: blocks.slice(0, 50) };
}

export function emailMessage(items: NotificationItem[], test = false) {
  if (test) {
    return {
      subject: "Switchboard test message",
      text: "This channel works.",
      html: "<p>This channel works.</p>",
    };
  }
  const goal = items[0]?.goal_title;
  const subject =
    items.length === 1
      ? `[Switchboard] ${kindLabel(items[0]?.kind as NotificationKind)}${goal ? ` · ${goal}` : ""}: ${items[0]?.summary ?? ""}`
      : `[Switchboard] ${items.length} updates${goal ? ` · ${goal}` : ""}`;
  const text: string[] = [];
  const html: string[] = [];
  for (const i of items) {
    text.push(
      `${kindLabel(i.kind)} from ${who(i)}${i.goal_title ? ` (goal: ${i.goal_title})` : ""}`,
      i.summary,
    );
    html.push(`<h3>${esc(kindLabel(i.kind))}${i.goal_title ? ` · ${esc(i.goal_title)}` : ""}</h3>`);
    html.push(`<p>From ${esc(who(i))}: ${esc(i.summary)}</p>`);
    const links: { label: string; url: string }[] = [];
    for (const sub of i.question?.questions ?? []) {
      if ((i.question?.questions.length ?? 0) > 1) text.push(`- ${sub.question}`);
      for (const o of sub.options) {
        text.push(
          `  * ${o.label}${o.description ? ` — ${o.description}` : ""}${o.action_url ? `: ${o.action_url}` : ""}`,
        );
        if (o.action_url) links.push({ label: o.label, url: o.action_url });
      }
    }
    if (i.proposal?.approve_url) {
      text.push(`  Approve: ${i.proposal.approve_url}`);
      links.push({ label: "Approve", url: i.proposal.approve_url });
    }
    text.push(`  Answer in Switchboard: ${i.link}`, "");
    html.push(
      `<p>${[...links, { label: "Answer in Switchboard", url: i.link }]
        .map((l) => `<a href="${esc(l.url)}">${esc(l.label)}</a>`)
        .join(" · ")}</p>`,
    );
  }
  return { subject: subject.slice(0, 200), text: text.join("\n"), html: html.join("\n") };
}
