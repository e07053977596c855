import type { ReadUnit, Unit } from "@/lib/db";
import { type SqlDate, toDate } from "@/lib/db/rows";
import { postToGoalChannel } from "@/lib/domain/channels/channels";
import { appendEvent } from "@/lib/domain/events/append-event";
import { escalateToOwner } from "@/lib/domain/owner-gateway";

/** Score with no evidence; below QUARANTINE_BELOW an agent is quarantined. */
export const NEUTRAL_SCORE = 0.5;
export const QUARANTINE_BELOW = 0.3;
/**
 * Minimum evidence before a score can quarantine (issue 13): at least this many verdicts (rows with a
 * task; a proposal's seed is not a verdict) in the domain. One rejection as the first evidence scores 0
 * (Σ delta = −1, clamped) but quarantines nobody; a second verdict that leaves the score below 0.3 does.
 */
export const MIN_VERDICTS_TO_QUARANTINE = 2;
/** An approved proposal's agent starts at this share of its proposer's score (the goals contract: 70 %). */
export const SEED_SHARE = 0.7;
const HALF_LIFE_DAYS = 30;
const DAY_MS = 86_400_000;

/** The reputation domain of a task: its billing code, or `general` when it has none. */
export const domainOf = (billingCode: string | null | undefined) => billingCode?.trim() || "general";

/**
 * The key evidence is filed under: the agent's config hash, or `agent:<id>` for an agent registered
 * without one (a hand-registered agent has no proposal to hash).
 */
export const reputationKey = (agent: { id: number; configHash: string | null }) =>
  agent.configHash ?? `agent:${agent.id}`;

/** docs/contracts.md: Σ delta·weight·2^(−age_days/30), clamped to [0,1]; 0.5 with no evidence. */
export function scoreOf(rows: { delta: number; weight: number; createdAt: SqlDate }[], now = Date.now()) {
  if (rows.length === 0) return NEUTRAL_SCORE;
  let sum = 0;
  for (const r of rows) {
    const ageDays = Math.max(0, now - toDate(r.createdAt).getTime()) / DAY_MS;
    sum += Number(r.delta) * Number(r.weight) * 2 ** (-ageDays / HALF_LIFE_DAYS);
  }
  return Math.min(1, Math.max(0, sum));
}

export type EvidenceRow = {
  id: number;
  domain: string;
  delta: number;
  weight: number;
  taskId: number | null;
  createdAt: Date;
};

/** At most this many history entries are returned (REST) or shown (the goal page), newest first. */
export const HISTORY_LIMIT = 50;

/**
 * The evidence that led to an agent's scores, newest first (issue 13): each row with what it was (`verdict`
 * on a task, or the `seed` of an approved proposal), its domain, delta and weight, and `score_after` — the
 * domain's score just after it, as it stood then (decayed to that moment).
 */
export function reputationHistory(
  rows: readonly EvidenceRow[],
  titles: ReadonlyMap<number, string> = new Map(),
  limit = HISTORY_LIMIT,
) {
  const sorted = [...rows].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id);
  const seen = new Map<string, EvidenceRow[]>();
  const out = sorted.map((r) => {
    const mine = seen.get(r.domain) ?? [];
    mine.push(r);
    seen.set(r.domain, mine);
    return {
      at: r.createdAt.toISOString(),
      kind: r.taskId === null ? ("seed" as const) : ("verdict" as const),
      domain: r.domain,
      delta: Number(r.delta),
      weight: Number(r.weight),
      task_id: r.taskId,
      task_title: r.taskId === null ? null : (titles.get(r.taskId) ?? null),
      score_after: scoreOf(mine, r.createdAt.getTime()),
    };
  });
  return out.reverse().slice(0, limit);
}

export async function reputationScore(u: ReadUnit, key: string, domain: string) {
  const rows = await u.sql.all<{ delta: number; weight: number; createdAt: SqlDate; taskId: number | null }>(
    `SELECT delta, weight, "createdAt", "taskId" FROM "ReputationEvidence" WHERE "configHash" = ? AND domain = ?`,
    key,
    domain,
  );
  return {
    score: scoreOf(rows),
    evidence: rows.length,
    verdicts: rows.filter((r) => r.taskId !== null).length,
  };
}

/** Whether a score on this evidence quarantines (below 0.3, with at least MIN_VERDICTS_TO_QUARANTINE verdicts). */
export const quarantines = (r: { score: number; verdicts: number }) =>
  r.verdicts >= MIN_VERDICTS_TO_QUARANTINE && r.score < QUARANTINE_BELOW;

/**
 * Write one evidence row (+1 approve / −1 reject) for the holder of a verified task, then quarantine
 * the agent when a rejection leaves its score in that domain below 0.3 with at least MIN_VERDICTS_TO_QUARANTINE
 * verdicts (never with no evidence, never on a first rejection alone) and tell the owner in the goal channel.
 */
export async function recordVerdictEvidence(
  u: Unit,
  e: { goalId: number; agentId: number; taskId: number; billingCode: string | null; delta: 1 | -1 },
): Promise<{ score: number; quarantined: boolean }> {
  const agent = await u.sql.get<{
    id: number;
    configHash: string | null;
    name: string;
    quarantinedAt: SqlDate | null;
  }>(`SELECT id, "configHash", name, "quarantinedAt" FROM "Agent" WHERE id = ?`, e.agentId);
  if (!agent) return { score: NEUTRAL_SCORE, quarantined: false };
  const key = reputationKey({ id: Number(agent.id), configHash: agent.configHash });
  const domain = domainOf(e.billingCode);
  await u.sql.run(
    `INSERT INTO "ReputationEvidence" ("configHash", domain, delta, weight, "taskId", "createdAt") VALUES (?, ?, ?, 1, ?, ?)`,
    key,
    domain,
    e.delta,
    e.taskId,
    new Date(),
  );
  const rep = await reputationScore(u, key, domain);
  const score = rep.score;
  // Only a failing verdict quarantines: an approval never does, even when the score stays below 0.3
  // (−1 then +1 sums to 0; quarantining the agent for an approved task would punish the good news).
  if (e.delta > 0 || !quarantines(rep) || agent.quarantinedAt) {
    return { score, quarantined: agent.quarantinedAt !== null };
  }
  await u.sql.run(`UPDATE "Agent" SET "quarantinedAt" = ? WHERE id = ?`, new Date(), e.agentId);
  await appendEvent(u, {
    goalId: e.goalId,
    name: "agent_quarantined",
    agentId: e.agentId,
    data: { score, domain, config_hash: key },
  });
  await postToGoalChannel(
    u,
    e.goalId,
    `Agent ${agent.name} (#${agent.id}) is quarantined: its reputation in "${domain}" fell to ${score.toFixed(2)} (below ${QUARANTINE_BELOW}). It can claim no task until the owner lifts the quarantine.`,
    { kind: "agent_quarantined", agent_id: e.agentId, score, domain },
  );
  // The owner's actionable card (/questions): Lift quarantine / Keep quarantined.
  await escalateToOwner(u, {
    kind: "quarantine",
    goalId: e.goalId,
    agentId: e.agentId,
    text: `Agent ${agent.name} (#${agent.id}) is quarantined: after ${rep.verdicts} verdicts its reputation in "${domain}" is ${score.toFixed(2)} (below ${QUARANTINE_BELOW}). It can claim no task until you lift the quarantine. Lift it now?`,
  });
  return { score, quarantined: true };
}
