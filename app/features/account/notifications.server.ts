import { z } from "zod";
import { notificationChannels, notificationKinds, switchFieldName as fieldName, type NotificationChannel, type NotificationKind } from "#contract/notification-kinds";
import type { NotificationSettings } from "#contract/notifications";

/** A checked box sends "on", an unchecked one nothing; any other field or value is not from this form. */
const SwitchesForm = z
  .object(Object.fromEntries(notificationKinds.flatMap((kind) => notificationChannels.map((channel) => [fieldName(kind, channel), z.literal("on").optional()]))))
  .strict();

/** The switches a /notifications form post asks for, or null when the post is not that form's. */
export function settingsFromForm(form: FormData): NotificationSettings | null {
  const entries = [...form.entries()].filter(([key]) => key !== "intent");
  if (entries.some(([, value]) => typeof value !== "string")) return null;
  const parsed = SwitchesForm.safeParse(Object.fromEntries(entries));
  if (!parsed.success || entries.length !== new Set(entries.map(([key]) => key)).size) return null;
  const on = (kind: NotificationKind, channel: NotificationChannel) => parsed.data[fieldName(kind, channel)] === "on";
  const entry = (kind: NotificationKind) => ({ email: on(kind, "email"), push: on(kind, "push") });
  return { messages: entry("messages"), likes: entry("likes"), matches: entry("matches"), news: entry("news") };
}
