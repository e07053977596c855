import { claudeCodeRuntime } from "./claude-code";
import { commandRuntime } from "./command";
import type { Runtime } from "./types";

/**
 * The runtimes this runner offers. The hub hands a runner only launches whose template's runtime it
 * offers (docs/runner.md). `claude-code` takes its model credentials from the runner's environment
 * (`ANTHROPIC_API_KEY`, `ANTHROPIC_BASE_URL`, a logged-in `CLAUDE_CONFIG_DIR`; docs/runtimes.md).
 */
export const RUNTIMES: Runtime[] = [claudeCodeRuntime(), commandRuntime];
