import type { SubmissionResult } from "@conform-to/react";

/**
 * What loaders and actions answer and components read: here, so that neither a component imports from a route nor
 * server code from a component.
 */

/** The like action's answer (app/routes/members_.$id.like.tsx): the like button and the match modal read it. */
export type LikeActionData = { ok: true; intent: "like" | "unlike"; match: boolean } | { ok: false; message: string };

/** The signup action's answer (app/features/signup/signup.server.ts): the signup form shows it. */
export type SignupActionData = {
  result: SubmissionResult<string[]>;
  problem: "account_exists" | "account_pending_deletion" | null;
  /** The likely intended address for the one sent back, unless the visitor kept it. */
  suggestion: string | null;
};

/** What a loader throws when the member blocked the viewer (api 403 blocked_by_member); MemberErrorBoundary shows it. */
export type BlockedByMemberData = { blocked_by_member: { name: string } };
