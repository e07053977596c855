// Runs once when the server starts: create or upgrade the database before the first request.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { migrate } = await import("@/lib/db/migrate");
  const { env } = await import("@/lib/env");
  const r = await migrate(env().DATABASE_URL);
  if (r.applied.length)
    console.error(`switchboard: applied migrations ${r.applied.join(", ")} (${r.provider})`);
}
