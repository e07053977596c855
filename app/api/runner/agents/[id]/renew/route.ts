import { renewLease } from "@/lib/domain/runner/launch-jobs";
import { idParam, runnerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

/** Runner protocol: `renew` of one launch (docs/runner.md). */
export const POST = runnerRoute<{ id: string }>(({ runner, body, params }) =>
  renewLease(runner, idParam(params.id, "agent"), body as never),
);
