/** Notification kinds and channels, without zod: the /notifications page needs only these names in the browser. */
export const notificationKinds = ["messages", "likes", "matches", "news"] as const;
export const notificationChannels = ["email", "push"] as const;
export type NotificationKind = (typeof notificationKinds)[number];
export type NotificationChannel = (typeof notificationChannels)[number];

/** The form field of a switch on web's /notifications ("likes_email"). */
export function switchFieldName(kind: NotificationKind, channel: NotificationChannel): string {
  return `${kind}_${channel}`;
}
