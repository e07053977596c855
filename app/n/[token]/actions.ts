"use server";

import { redeemAction } from "@/lib/domain/notifications/actions";

/** Use a notification's action token (the token is the credential: signed, single use, short-lived). */
export async function redeemTokenAction(token: string) {
  const r = await redeemAction(token);
  return { outcome: r.outcome, message: r.message, link: r.link };
}
