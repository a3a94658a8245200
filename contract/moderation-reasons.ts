/**
 * Plain constants, no zod (pages import them): the reasons of moderation decisions and member reports
 * (docs/staff.md). Members read them in their language: the moderation namespace (reportReasons, reasons) and the
 * photos namespace (rejection).
 */

/** Why a member is suspended or banned, or why content was hidden. */
export const moderationReasons = ["spam", "scam", "harassment", "fake_profile", "underage", "nudity", "offensive", "payment_fraud", "terms_violation", "other"] as const;

/** What a member may report about a profile or a message. */
export const reportReasons = ["fake_profile", "scam", "harassment", "nudity", "underage", "spam", "offensive", "other"] as const;

/** Why a moderator rejected a photo. */
export const photoRejectionReasons = ["not_the_member", "nudity", "minor", "contact_details", "poor_quality", "copyright", "offensive", "other"] as const;

/** Where a report stands in the staff's queue. */
export const reportStatusNames = ["new", "in_progress", "resolved", "rejected"] as const;

/** What a report's decision does to the member reported. */
export const reportMeasures = ["none", "hide_profile", "suspend", "ban"] as const;
