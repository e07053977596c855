import { z } from "zod";
import { type ReadUnit, read, write } from "@/lib/db";
import { ownedGoal } from "@/lib/domain/goals/owned";
import { env } from "@/lib/env";
import { NOTIFICATION_KINDS } from "./kinds";

/**
 * Per-owner and per-goal notification settings: which kinds, which channels, batching, mute. The owner's
 * row (goalId 0) is the default; a goal's row overrides the fields it sets (null = inherit).
 */
export const settingsInput = z.strictObject({
  goal_id: z.number().int().positive().nullable().optional(),
  kinds: z.array(z.enum(NOTIFICATION_KINDS)).nullable().optional(),
  channels: z.array(z.number().int().positive()).max(100).nullable().optional(),
  batch_seconds: z.number().int().min(0).max(86_400).nullable().optional(),
  muted: z.boolean().optional(),
});

export type SettingsView = {
  goal_id: number | null;
  kinds: string[] | null;
  channels: number[] | null;
  batch_seconds: number | null;
  muted: boolean;
};

type Row = {
  goalId: number;
  kindsJson: string | null;
  channelsJson: string | null;
  batchSeconds: number | null;
  muted: boolean;
};

const view = (r: Row): SettingsView => ({
  goal_id: r.goalId || null,
  kinds: r.kindsJson ? (JSON.parse(r.kindsJson) as string[]) : null,
  channels: r.channelsJson ? (JSON.parse(r.channelsJson) as number[]) : null,
  batch_seconds: r.batchSeconds,
  muted: r.muted,
});

export async function getSettings(ownerId: number) {
  const rows = await read((u) =>
    u.db.notificationSetting.findMany({ where: { ownerId }, orderBy: { goalId: "asc" } }),
  );
  const own = rows.find((r) => r.goalId === 0);
  return {
    owner: own
      ? view(own)
      : { goal_id: null, kinds: null, channels: null, batch_seconds: null, muted: false },
    goals: rows.filter((r) => r.goalId !== 0).map(view),
    default_batch_seconds: env().SWITCHBOARD_NOTIFY_BATCH_S,
  };
}

export async function putSettings(ownerId: number, raw: unknown): Promise<SettingsView> {
  const input = settingsInput.parse(raw);
  const goalId = input.goal_id ?? 0;
  return write(async (u) => {
    if (goalId) await ownedGoal(u, ownerId, goalId);
    const data = {
      ...(input.kinds !== undefined ? { kindsJson: input.kinds ? JSON.stringify(input.kinds) : null } : {}),
      ...(input.channels !== undefined
        ? { channelsJson: input.channels ? JSON.stringify(input.channels) : null }
        : {}),
      ...(input.batch_seconds !== undefined ? { batchSeconds: input.batch_seconds } : {}),
      ...(input.muted !== undefined ? { muted: input.muted } : {}),
    };
    const existing = await u.db.notificationSetting.findUnique({
      where: { ownerId_goalId: { ownerId, goalId } },
    });
    const row = existing
      ? await u.db.notificationSetting.update({ where: { id: existing.id }, data })
      : await u.db.notificationSetting.create({ data: { ownerId, goalId, ...data } });
    return view(row);
  });
}

export type Effective = {
  kinds: string[] | null;
  channels: number[] | null;
  batchSeconds: number;
  muted: boolean;
};

/** The settings that apply to one goal of an owner (goal row over owner row over the defaults). */
export async function effectiveSettings(
  u: ReadUnit,
  ownerId: number,
  goalId: number | null,
): Promise<Effective> {
  const rows = await u.db.notificationSetting.findMany({
    where: { ownerId, goalId: { in: goalId ? [0, goalId] : [0] } },
  });
  const own = rows.find((r) => r.goalId === 0);
  const goal = goalId ? rows.find((r) => r.goalId === goalId) : undefined;
  const pick = <T>(f: (r: Row) => T | null): T | null =>
    goal && f(goal) !== null ? f(goal) : own ? f(own) : null;
  return {
    kinds: pick((r) => (r.kindsJson ? (JSON.parse(r.kindsJson) as string[]) : null)),
    channels: pick((r) => (r.channelsJson ? (JSON.parse(r.channelsJson) as number[]) : null)),
    batchSeconds: pick((r) => r.batchSeconds) ?? env().SWITCHBOARD_NOTIFY_BATCH_S,
    muted: Boolean(goal?.muted || own?.muted),
  };
}
