/** The operator inbox's queues (docs/staff.md), without zod: the inbox page reads it. */
export const inboxQueueNames = ["new", "unreplied", "waiting", "stopped"] as const;
