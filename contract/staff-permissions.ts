/*
 * docs/staff.md: what each staff role may do, in one place, as plain constants (no zod) so that a staff page can
 * ask it without bringing schemas into the browser. Every staff endpoint of the table (contract/endpoints/staff.ts)
 * names one of these actions; the api's gate (api/http/staff.ts) and web's pages (contract/endpoints/may.ts) read it,
 * and tests/api/staff.test.ts walks every role against every endpoint.
 */

export const staffRoleNames = ["admin", "moderator", "support", "operator"] as const;
export type StaffRoleName = (typeof staffRoleNames)[number];

export const staffPermissions = {
  /** The dashboard and one's own account. */
  "staff.self": ["admin", "moderator", "support", "operator"],
  /** The audit log. */
  "audit.read": ["admin"],
  /** Staff accounts: make, change, disable. */
  "staff.manage": ["admin"],
  /** The photo queue: approve and reject photos. */
  "photos.moderate": ["admin", "moderator"],
  /** The reports queue: take, note, resolve or reject a report, hide a photo or a profile, mail the sender and the member. */
  "reports.handle": ["admin", "moderator", "support"],
  /** Find members and read their page (profile, photos, status, ledger, payments, logins, reports). */
  "members.read": ["admin", "moderator", "support"],
  /** Read the members' messages (a reported message, a member's conversations): support sees no message contents. */
  "members.messages": ["admin", "moderator"],
  /** Members' messages held for contact details: approve (delivered) or reject (undelivered, credits back). */
  "messages.moderate": ["admin", "moderator"],
  /** Suspend or ban a member, lift it, resend the activation mail. */
  "members.suspend": ["admin", "moderator", "support"],
  /** Grant or deduct credits, refund a payment, lift a direct-debit block. */
  "members.money": ["admin", "support"],
  /** Erase a member's account. */
  "members.erase": ["admin"],
  /** The operator inbox: claim and answer members' conversations with site-run profiles, as the profile. */
  "inbox.answer": ["admin", "operator"],
  /** The desk's saved replies and each site's waiting-time thresholds. */
  "replies.manage": ["admin"],
  /** The operators' figures per day. */
  "operators.read": ["admin"],
  /** The owners' analytics: funnel, revenue, cohorts and chat per site or every site (/staff/analytics). */
  "analytics.read": ["admin"],
  /** The catalogue: sites and their settings, credit packages, discount codes, invitations. */
  "catalogue.manage": ["admin"],
  /** Site-run profiles: make, change, disable, their photos. */
  "profiles.manage": ["admin"],
} as const satisfies Record<string, readonly StaffRoleName[]>;

export type StaffAction = keyof typeof staffPermissions;

/** Whether a role serves every site (its accounts have no list of sites), as admins do; the others serve the sites their account lists. */
export function servesEverySite(role: StaffRoleName): boolean {
  return role === "admin";
}

/** Whether a role may take an action (the site a staff member serves is the api's to check). */
export function roleMay(role: StaffRoleName, action: StaffAction): boolean {
  return (staffPermissions[action] as readonly StaffRoleName[]).includes(role);
}
