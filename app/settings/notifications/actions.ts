"use server";

import { revalidatePath } from "next/cache";
import { requireOwner } from "@/lib/auth/require-owner";
import { createChannel, deleteChannel, updateChannel } from "@/lib/domain/notifications/channels";
import { replayDelivery, sendTest } from "@/lib/domain/notifications/outbox";
import { putSettings } from "@/lib/domain/notifications/settings";
import { actionError } from "@/lib/http/form-state";

const PAGE = "/settings/notifications";
const str = (f: FormData, k: string) => {
  const v = f.get(k);
  return typeof v === "string" && v.trim() !== "" ? v.trim() : undefined;
};

/** Add a channel from the form; a webhook's signing secret comes back this once. */
export async function createChannelAction(
  form: FormData,
): Promise<{ error?: string; signing_secret?: string }> {
  const owner = await requireOwner();
  const kind = str(form, "kind");
  const common = { kind, name: str(form, "name") ?? "" };
  const input =
    kind === "webhook"
      ? { ...common, url: str(form, "url") ?? "" }
      : kind === "slack"
        ? {
            ...common,
            webhook_url: str(form, "webhook_url") ?? "",
            signing_secret: str(form, "signing_secret"),
          }
        : {
            ...common,
            host: str(form, "host") ?? "",
            port: str(form, "port") ?? "587",
            secure: form.get("secure") === "on",
            user: str(form, "user"),
            password: str(form, "password"),
            from: str(form, "from") ?? "",
            to: str(form, "to") ?? "",
          };
  try {
    const c = await createChannel(owner.userId, input);
    revalidatePath(PAGE);
    return { signing_secret: "signing_secret" in c ? c.signing_secret : undefined };
  } catch (e) {
    return { error: actionError(e) };
  }
}

export async function setChannelEnabledAction(id: number, enabled: boolean): Promise<{ error?: string }> {
  const owner = await requireOwner();
  try {
    await updateChannel(owner.userId, id, { enabled });
  } catch (e) {
    return { error: actionError(e) };
  }
  revalidatePath(PAGE);
  return {};
}

export async function deleteChannelAction(id: number): Promise<{ error?: string }> {
  const owner = await requireOwner();
  try {
    await deleteChannel(owner.userId, id);
  } catch (e) {
    return { error: actionError(e) };
  }
  revalidatePath(PAGE);
  return {};
}

export async function testChannelAction(
  id: number,
): Promise<{ error?: string; ok?: boolean; detail?: string }> {
  const owner = await requireOwner();
  try {
    const r = await sendTest(owner.userId, id);
    revalidatePath(PAGE);
    return { ok: r.ok, detail: r.ok ? "Delivered." : (r.error ?? "Failed.") };
  } catch (e) {
    return { error: actionError(e) };
  }
}

export async function replayAction(id: number): Promise<{ error?: string }> {
  const owner = await requireOwner();
  try {
    await replayDelivery(owner.userId, id);
  } catch (e) {
    return { error: actionError(e) };
  }
  revalidatePath(PAGE);
  return {};
}

export async function saveSettingsAction(form: FormData): Promise<{ error?: string }> {
  const owner = await requireOwner();
  const kinds = form.getAll("kinds").map(String);
  const all = form.get("all_kinds") === "on";
  const batch = str(form, "batch_seconds");
  try {
    await putSettings(owner.userId, {
      kinds: all ? null : kinds,
      batch_seconds: batch === undefined ? null : Number(batch),
      muted: form.get("muted") === "on",
    });
  } catch (e) {
    return { error: actionError(e) };
  }
  revalidatePath(PAGE);
  return {};
}

/** One goal's override: mute it, or give it its own batching window (empty = the owner's). */
export async function saveGoalSettingsAction(goalId: number, form: FormData): Promise<{ error?: string }> {
  const owner = await requireOwner();
  const batch = str(form, "batch_seconds");
  try {
    await putSettings(owner.userId, {
      goal_id: goalId,
      batch_seconds: batch === undefined ? null : Number(batch),
      muted: form.get("muted") === "on",
    });
  } catch (e) {
    return { error: actionError(e) };
  }
  revalidatePath(PAGE);
  return {};
}
