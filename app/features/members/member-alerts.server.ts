import type { AppLoadContext } from "@remix-run/node";
import type { z } from "zod";
import { DismissalsResponse, type DismissalKey } from "#contract/account";
import type { User } from "#contract/user";
import { apiFor } from "~/utils/api.server";
import { timeBonusModalEligible, type Offer } from "../payments/offers";

/**
 * docs/product.md §2 "warning banners" of the default layout, each hidden for good once the member dismisses it
 * (docs/product.md §4 Dismissals: stored on the server, so they follow the member across devices):
 * - hide-disabled-notifications-alert: we no longer e-mail the member (marked as spam, bounced, unsubscribed);
 * - hide-enrich-alert: an activated member without a photo is asked to add one.
 * - hide-time-bonus-modal: the time bonus modal (docs/product.md §4), for a member with 0 credits whose bonus runs.
 * The push alert (hide-push-notification-alert) comes with its feature.
 */
export type MemberAlert =
  | { key: "hide-disabled-notifications-alert"; reasons: User["notifications_disabled"] }
  | { key: "hide-enrich-alert" }
  | { key: "hide-time-bonus-modal" };

/** The banners `user` qualifies for, before dismissals. */
export function alertCandidates(
  user: Pick<User, "status" | "notifications_disabled"> & Partial<Pick<User, "credits" | "paid_user">> & { profile: Pick<User["profile"], "main_image"> },
  offer: Offer | null = null,
  nowMs = Date.now(),
): MemberAlert[] {
  const candidates: MemberAlert[] = [];
  if (user.credits !== undefined && timeBonusModalEligible({ credits: user.credits, paidUser: user.paid_user ?? false }, offer, false, nowMs)) candidates.push({ key: "hide-time-bonus-modal" });
  if (user.notifications_disabled.length > 0) candidates.push({ key: "hide-disabled-notifications-alert", reasons: user.notifications_disabled });
  // A not yet activated member sees the activation reminder instead: one request at a time.
  if (user.status === "active" && user.profile.main_image === null) candidates.push({ key: "hide-enrich-alert" });
  return candidates;
}

export async function memberAlerts(request: Request, context: AppLoadContext, user: User, offer: Offer | null): Promise<MemberAlert[]> {
  const candidates = alertCandidates(user, offer);
  // Most pages of most members have nothing to show: ask for the dismissals only when something could show.
  if (candidates.length === 0) return [];
  const result = await apiFor(request, context).get("/api/dismissals.php", DismissalsResponse);
  // Without the dismissals (api trouble) showing a dismissed banner again would nag: show none this time.
  if (!result.ok) return [];
  const dismissed: Partial<Record<z.infer<typeof DismissalKey>, string>> = result.data.dismissals;
  return candidates.filter((alert) => !dismissed[alert.key]);
}
