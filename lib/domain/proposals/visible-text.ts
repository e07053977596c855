/**
 * Text an owner must read exactly (a command a runner will execute) with every character that could hide
 * or reorder what they see made visible (issue 16 §1): C0/C1 controls (newline and tab included), the
 * bidirectional overrides and isolates (a U+202E can make `rm -rf ~` render as something harmless), and
 * zero-width characters. Each becomes `⟨U+XXXX⟩` (newline `⟨\n⟩`, tab `⟨\t⟩`), so the string shown is
 * read left to right exactly as the shell will read it.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this regex's job
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/gu;

export function showInvisible(s: string): string {
  return s.replace(HIDDEN, (c) => {
    if (c === "\n") return "⟨\\n⟩";
    if (c === "\t") return "⟨\\t⟩";
    return `⟨U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}⟩`;
  });
}
