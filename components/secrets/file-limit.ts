import { MAX_FILE_SECRET_BYTES } from "@/lib/domain/secrets/schemas";

/**
 * A clear message when the form's chosen file is over the file-secret cap, checked in the browser before
 * sending (the server checks again); undefined when it fits or no file was chosen.
 */
export function fileTooLarge(fd: FormData): string | undefined {
  const f = fd.get("file");
  if (!(f instanceof File) || f.size <= MAX_FILE_SECRET_BYTES) return undefined;
  return `${f.name} is ${f.size.toLocaleString("en")} bytes; a file secret can be at most ${MAX_FILE_SECRET_BYTES.toLocaleString("en")} bytes (256 KiB).`;
}
