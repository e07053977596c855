import { env } from "@/lib/env";

/**
 * The request body as text, or undefined when it exceeds SWITCHBOARD_MAX_BODY_BYTES (refused from the
 * declared Content-Length before reading when there is one).
 */
export async function cappedText(req: Request): Promise<string | undefined> {
  const cap = env().SWITCHBOARD_MAX_BODY_BYTES;
  if (Number(req.headers.get("content-length") ?? 0) > cap) return undefined;
  const text = await req.text();
  return Buffer.byteLength(text) > cap ? undefined : text;
}
