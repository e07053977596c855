// GET /api/health – liveness and database reachability (no authentication, reveals nothing)
import { read } from "@/lib/db";

export const dynamic = "force-dynamic";

export async function GET() {
  try {
    await read(({ sql }) => sql.get("SELECT 1 AS ok"));
    return Response.json({ ok: true });
  } catch {
    return Response.json({ ok: false }, { status: 503 });
  }
}
