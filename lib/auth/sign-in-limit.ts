/**
 * Failed sign-ins, counted per email and per client address over a sliding window (issue 16; in memory,
 * per server process: several instances each keep their own count, docs/decisions.md "Sign-in").
 */
export const SIGN_IN_WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_EMAIL = 10;
export const MAX_FAILURES_PER_ADDRESS = 50;

const failures = new Map<string, number[]>();

function recent(key: string, now: number): number[] {
  const kept = (failures.get(key) ?? []).filter((t) => now - t < SIGN_IN_WINDOW_MS);
  if (kept.length) failures.set(key, kept);
  else failures.delete(key);
  return kept;
}

/** True when this email or address has failed too often lately: refuse without checking the password. */
export function signInBlocked(email: string, address: string, now = Date.now()): boolean {
  return (
    recent(`e:${email}`, now).length >= MAX_FAILURES_PER_EMAIL ||
    recent(`a:${address}`, now).length >= MAX_FAILURES_PER_ADDRESS
  );
}

export function recordSignInFailure(email: string, address: string, now = Date.now()): void {
  for (const key of [`e:${email}`, `a:${address}`]) failures.set(key, [...recent(key, now), now]);
  // Bound the map: a flood of distinct emails must not grow it without limit.
  if (failures.size > 50_000) {
    for (const key of failures.keys())
      if (recent(key, now).length === 0 || failures.size > 40_000) failures.delete(key);
  }
}

export function clearSignInFailures(email: string): void {
  failures.delete(`e:${email}`);
}
