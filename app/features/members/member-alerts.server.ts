import type { AppLoadContext } from "@remix-run/node";
import type { z } from "zod";
import {  type DismissalKey } from "#contract/account";
import type { User } from "#contract/user";
import { inMembersArea } from "#contract/offers";
import { apiFor } from "~/utils/api.server";
import { splitLocale } from "~/utils/paths";
import { timeBonusModalEligible, type Offer } from "../payments/offers";
import { endpoints } from "#contract/endpoints/index";

/**
 * docs/product.md §2 "warning banners" of the default layout, each hidden for good once the member dismisses it
 * (docs/product.md §4 Dismissals: stored on the server, so they follow the member across devices):
 * - hide-disabled-notifications-alert: we no longer e-mail the member (marked as spam, bounced, unsubscribed);
 * - hide-enrich-alert: an activated member without a photo is asked to add one.
 * - hide-time-bonus-modal: the time bonus modal (docs/product.md §4), for a member with 0 credits whose bonus runs.
 * - hide-push-notification-alert: an activated member in the members area of a site with push keys is offered
 *   notifications (app/features/push/push-alert.tsx); whether this browser can push, or has already subscribed
 *   (the signup push step), only the browser knows, so it shows after hydration only where it applies.
 */
export type MemberAlert =
  | { key: "hide-disabled-notifications-alert"; reasons: User["notifications_disabled"] }
  | { key: "hide-enrich-alert" }
  | { key: "hide-time-bonus-modal" }
  | { key: "hide-push-notification-alert"; publicKey: string };

/** The banners `user` qualifies for, before dismissals. `pushKey`: the site's push key where the page is in the members area, else null. */
export function alertCandidates(
  user: Pick<User, "status" | "notifications_disabled"> & Partial<Pick<User, "credits" | "paid_user">> & { profile: Pick<User["profile"], "main_image"> },
  offer: Offer | null = null,
  nowMs = Date.now(),
  pushKey: string | null = null,
): MemberAlert[] {
  const candidates: MemberAlert[] = [];
  if (user.credits !== undefined && timeBonusModalEligible({ credits: user.credits, paidUser: user.paid_user ?? false }, offer, false, nowMs)) candidates.push({ key: "hide-time-bonus-modal" });
  if (user.notifications_disabled.length > 0) candidates.push({ key: "hide-disabled-notifications-alert", reasons: user.notifications_disabled });
  // A not yet activated member sees the activation reminder instead: one request at a time.
  if (user.status === "active" && user.profile.main_image === null) candidates.push({ key: "hide-enrich-alert" });
  if (user.status === "active" && pushKey) candidates.push({ key: "hide-push-notification-alert", publicKey: pushKey });
  return candidates;
}

/** `pushPublicKey`: the site's (settings push_public_key); without one the site has no push to offer. */
export async function memberAlerts(request: Request, context: AppLoadContext, user: User, offer: Offer | null, pushPublicKey: string | null = null): Promise<MemberAlert[]> {
  const pushKey = pushPublicKey && inMembersArea(splitLocale(new URL(request.url).pathname).path) ? pushPublicKey : null;
  const candidates = alertCandidates(user, offer, Date.now(), pushKey);
  // Most pages of most members have nothing to show: ask for the dismissals only when something could show.
  if (candidates.length === 0) return [];
  const result = await apiFor(request, context).call(endpoints.dismissals);
  // Without the dismissals (api trouble) showing a dismissed banner again would nag: show none this time.
  if (!result.ok) return [];
  const dismissed: Partial<Record<z.infer<typeof DismissalKey>, string>> = result.data.dismissals;
  return candidates.filter((alert) => !dismissed[alert.key]);
}
