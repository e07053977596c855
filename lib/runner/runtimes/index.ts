import { commandRuntime } from "./command";
import type { Runtime } from "./types";

/**
 * The runtimes this runner offers. The hub hands a runner only launches whose template's runtime it
 * offers; until `claude-code` is registered here, agents of claude-code templates stay `queued` on the
 * hub (docs/runner.md), never faked.
 *
 * issue 11 (claude-code runtime, built separately): when lib/runner/runtimes/claude-code.ts is merged,
 * import its Runtime here and add it to the list.
 */
export const RUNTIMES: Runtime[] = [commandRuntime];
