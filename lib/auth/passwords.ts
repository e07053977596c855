import { hash, verify } from "@node-rs/argon2";

/** Argon2id with the library's defaults (19 MiB, 2 passes): slow on purpose. */
export const hashPassword = (password: string) => hash(password);

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}
