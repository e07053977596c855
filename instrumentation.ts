// Runs once when the server starts: create or upgrade the database before the first request, start the jobs.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { migrate } = await import("@/lib/db/migrate");
  const { env } = await import("@/lib/env");
  const r = await migrate(env().DATABASE_URL);
  if (r.applied.length)
    console.error(`switchboard: applied migrations ${r.applied.join(", ")} (${r.provider})`);
  // `npm start` checks the secret key in server/main.ts; `next dev` has no other start to do it in.
  if (process.env.NODE_ENV === "development") {
    const { checkSecretKeyAtStart } = await import("@/lib/domain/secrets/key-check");
    await checkSecretKeyAtStart();
  }
  // Background jobs also under `next dev` / `next start` (server/main.ts starts them for `npm start`;
  // a process-wide guard keeps it to one loop per process, the database lease to one per deployment).
  const { seedBuiltinSkills } = await import("@/lib/domain/skills/skills");
  const { startWatchdog } = await import("@/lib/jobs/watchdog");
  const { startNotifications } = await import("@/lib/jobs/notifications");
  await seedBuiltinSkills();
  startWatchdog();
  startNotifications();
}
