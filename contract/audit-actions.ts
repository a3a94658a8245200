/* The audit log's actions (no zod here: the audit page's filter imports it in the browser). */

/**
 * Every action the audit log records (api/domain/staff/audit.ts takes only these, so the list stays complete): the
 * audit page's action filter offers them.
 */
export const auditActions = [
  "discount_code.create", "discount_code.expire",
  "inbox.answer", "inbox.note", "inbox.reply",
  "invitation.create", "invitation.revoke",
  "member.ban", "member.credits_deduct", "member.credits_grant", "member.erase", "member.hide_profile", "member.lift", "member.lift_debit_block", "member.refund", "member.resend_activation", "member.show_profile", "member.suspend",
  "message.approve", "message.reject",
  "package.create", "package.disable", "package.enable", "package.update",
  "photo.approve", "photo.reject",
  "profile.add_photo", "profile.create", "profile.delete_photo", "profile.disable", "profile.enable", "profile.update",
  "report.in_progress", "report.new", "report.note", "report.rejected", "report.reply", "report.resolved", "report.statement",
  "saved_reply.create", "saved_reply.delete", "saved_reply.update",
  "site.create", "site.message_cost", "site.message_cost_remove", "site.push_keys", "site.push_keys_remove", "site.transaction_cost", "site.transaction_cost_remove", "site.update", "site.wait_thresholds",
  "staff.add", "staff.disable", "staff.enable", "staff.login", "staff.login_failed", "staff.login_locked", "staff.login_recovery_code", "staff.logout", "staff.new_setup_link", "staff.password_changed", "staff.setup_completed",
] as const;
