import { env } from "@/lib/env";

/**
 * The request body as text, or undefined when it exceeds SWITCHBOARD_MAX_BODY_BYTES (refused from the
 * declared Content-Length before reading when there is one, else while reading).
 */
export async function cappedText(req: Request): Promise<string | undefined> {
  const cap = env().SWITCHBOARD_MAX_BODY_BYTES;
  if (Number(req.headers.get("content-length") ?? 0) > cap) return undefined;
  if (!req.body) return "";
  // Read while counting: a body without (or lying about) its Content-Length stops at the cap, unbuffered.
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = req.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > cap) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
