import { pollJob } from "@/lib/domain/runner/launch-jobs";
import { runnerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

/** A runner's long-poll for its next job (docs/runner.md). */
export const POST = runnerRoute(({ runner, body, req }) => pollJob(runner, body as never, req.signal));
