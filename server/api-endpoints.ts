/**
 * The api endpoints web's pages call (app/utils/api.server.ts), for api_calls_total's `endpoint` label
 * (server/metrics.ts): a call to a path not listed is counted as "other". tests/unit/metrics.test.ts fails when
 * app/ names an endpoint that is missing here.
 */
export const apiEndpoints: readonly string[] = [
  "/api/activate.php", "/api/activation-mail.php", "/api/auto-like.php", "/api/block.php", "/api/blocks.php",
  "/api/cam-click.php", "/api/chat-image.php", "/api/chat-read.php", "/api/chat.php", "/api/chats.php",
  "/api/complaints.php", "/api/dataexport-file.php", "/api/dataexport.php", "/api/delete-account.php",
  "/api/directdebit-code.php", "/api/directdebit-confirm.php", "/api/directdebit.php", "/api/discovery.php",
  "/api/dismissals.php", "/api/events.php", "/api/geocode.php", "/api/gif.php", "/api/gifs.php", "/api/like.php", "/api/likes.php",
  "/api/logout.php", "/api/mail-change-do.php", "/api/mail-change.php", "/api/member.php", "/api/members.php",
  "/api/message.php", "/api/notifications-resume.php", "/api/notifications.php", "/api/packages.php",
  "/api/page-hidden.php", "/api/page-visible.php", "/api/password-reset-do.php", "/api/password-reset.php",
  "/api/password.php", "/api/payment.php", "/api/photo.php", "/api/photos.php", "/api/profile.php",
  "/api/reactivate.php", "/api/regions.php", "/api/repeat-order.php", "/api/report.php", "/api/sandbox-checkout.php",
  "/api/sandbox-debit.php", "/api/settings.php", "/api/signup-matches.php", "/api/signup.php",
  "/api/staff/accounts.php", "/api/staff/analytics.php", "/api/staff/audit.php", "/api/staff/dashboard.php", "/api/staff/desk.php", "/api/staff/discount-codes.php",
  "/api/staff/events.php", "/api/staff/held-messages.php", "/api/staff/inbox-conversation.php", "/api/staff/inbox-image.php", "/api/staff/inbox-next.php", "/api/staff/inbox.php",
  "/api/staff/invitations.php", "/api/staff/login.php", "/api/staff/logout.php", "/api/staff/me.php",
  "/api/staff/member.php", "/api/staff/members.php", "/api/staff/operators.php", "/api/staff/packages.php",
  "/api/staff/password.php", "/api/staff/photos.php", "/api/staff/profile-photo.php", "/api/staff/profile.php",
  "/api/staff/profiles.php", "/api/staff/queues.php", "/api/staff/report.php", "/api/staff/reports.php",
  "/api/staff/saved-replies.php", "/api/staff/setup.php", "/api/staff/site.php", "/api/staff/sites.php", "/api/teasers.php", "/api/transaction.php",
  "/api/transactions.php", "/api/typing.php", "/api/unsubscribe.php", "/api/user.php", "/api/visit.php",
];
