/**
 * The owner-facing notification kinds (docs/notifications.md). One model for every event that waits on,
 * or matters to, the goal's owner.
 */
export const NOTIFICATION_KINDS = [
  "question",
  "approval",
  "secret_request",
  "budget",
  "crash",
  "quarantine",
  "escalation",
  "review",
  "goal_completed",
  "goal_stuck",
  "channel_disabled",
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const CHANNEL_KINDS = ["webhook", "slack", "email"] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

/** The bus topic that wakes the notification worker. */
export const NOTIFY_TOPIC = "notifications";

/** One notification as the senders see it. */
export type NotificationItem = {
  id: number;
  kind: NotificationKind;
  goal_id: number | null;
  goal_title: string | null;
  summary: string;
  /** Absolute URL of the card in the app. */
  link: string;
  created_at: string;
  /** Who is waiting: the agent behind it (null: the system, or no agent). */
  waiting: { agent_id: number; name: string | null } | null;
  /** For a question: its sub-questions, options and (single-choice ones) action URLs. */
  question?: {
    qid: string;
    status: string;
    questions: {
      question: string;
      header: string;
      multi_select: boolean;
      options: { label: string; description: string; action_url: string | null }[];
    }[];
  };
  /** For a proposal: its approval message id and an approve URL. */
  proposal?: { proposal_message_id: number; approve_url: string | null };
};
