import { reportEvents } from "@/lib/domain/runner/launch-jobs";
import { idParam, runnerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

/** Runner protocol: `events` of one launch (docs/runner.md). */
export const POST = runnerRoute<{ id: string }>(({ runner, body, params }) =>
  reportEvents(runner, idParam(params.id, "agent"), body as never),
);
