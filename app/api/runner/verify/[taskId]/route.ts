import { reportVerdict } from "@/lib/domain/runner/launch-jobs";
import { idParam, runnerRoute } from "@/lib/http/rest";

export const dynamic = "force-dynamic";

/** Runner protocol: the verdict of a command verification the runner took (docs/runner.md). */
export const POST = runnerRoute<{ taskId: string }>(({ runner, body, params }) =>
  reportVerdict(runner, idParam(params.taskId, "task"), body as never),
);
