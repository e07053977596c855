import { issueLaunchKey } from "@/lib/domain/runner/launch-jobs";
import { idParam, runnerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

/** Runner protocol: `key` of one launch (docs/runner.md). */
export const POST = runnerRoute<{ id: string }>(({ runner, body, params }) =>
  issueLaunchKey(runner, idParam(params.id, "agent"), body as never),
);
