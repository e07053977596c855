// Constants of the contracts that several surfaces share (tool schemas, forms, components, tests).
// Import-free on purpose: client components import this file too.

/** The leader sentinel of the orchestration contract: the owner (a `leaderId`/holder of null) reads as this. */
export const USER_SENTINEL = "__user__";

/** Largest message body we accept (the contract sets none; the inbox cap bounds the count). */
export const MAX_MESSAGE_CHARS = 64_000;

/** Goal statuses from which nothing moves on: no agent works, no key authenticates, nothing resumes. */
export const FINISHED_GOAL_STATUSES: readonly string[] = ["completed", "cancelled"];
