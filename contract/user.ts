import { z } from "zod";
import { sexualities } from "./profile-choices";
import { CurrentPassword, Email } from "./input";
import { locales } from "./locales";
import { ActiveDiscount } from "./discounts";

export const Locale = z.enum(locales);

export const MainImage = z.object({
  filename: z.string(),
  thumb_filename: z.string(),
  status: z.enum(["active", "pending", "rejected"]),
});
export type MainImage = z.infer<typeof MainImage>;

export const Gender = z.enum(["male", "female"]);
export const Sexuality = z.enum(sexualities);

export const Profile = z.object({
  id: z.number().int(),
  name: z.string(),
  country: z.string(),
  region: z.string().nullable(),
  city: z.string().nullable(),
  status: z.enum(["active", "disabled"]),
  main_image: MainImage.nullable(),
  date_of_birth: z.string(),
  gender: Gender,
  sexuality: Sexuality,
  about_me: z.string(),
  interests: z.array(z.number().int()),
  /** Choice fields (values in contract/profile.ts profileChoices); null: not given. */
  hair_color: z.string().nullable(),
  eye_color: z.string().nullable(),
  body_type: z.string().nullable(),
  relationship_status: z.string().nullable(),
  tattoos: z.string().nullable(),
  signup_reason: z.string().nullable(),
  /** docs/product.md §4 invisible mode: hidden from search, messages and likes. */
  invisible: z.boolean(),
});
export type Profile = z.infer<typeof Profile>;

export const NotificationDisabledReason = z.enum(["fbl", "bounce", "listunsubscribe"]);

export const User = z.object({
  id: z.number().int(),
  /** The member's own address (only ever sent to the member). */
  email: z.string(),
  status: z.enum(["not_confirmed", "active", "deleted"]),
  credits: z.number().int(),
  paid_user: z.boolean(),
  signup_date: z.string(),
  language: Locale,
  notifications_disabled: z.array(NotificationDisabledReason),
  profile: Profile,
});
export type User = z.infer<typeof User>;

/**
 * A badge count is exact below this and this value stands for "this many or more": the badges show 99+ from 100
 * (docs/product.md §2), so the api counts at most this many rows for a badge, however many a member has.
 */
export const badgeCountCap = 100;

/** docs/product.md §3 chat state totals, for the navigation badges; each at most badgeCountCap. */
export const UserCounts = z.object({ unread_messages: z.number().int().min(0).max(badgeCountCap), new_likes: z.number().int().min(0).max(badgeCountCap) });

/** GET /api/user.php and the answers of POST/PUT: `user` is null when nobody is logged in. */
export const UserResponse = z.object({
  user: User.nullable(),
  counts: UserCounts.optional(),
  /**
   * The member's offer (docs/product.md §4 time bonus, §9 welcome discount): the time bonus while it runs, else
   * the welcome discount; null when neither (paid before, too long since signup). Absent for visitors.
   */
  discount: ActiveDiscount.nullable().optional(),
});
export type UserResponse = z.infer<typeof UserResponse>;
export type UserCounts = z.infer<typeof UserCounts>;

export const LoginRequest = z.object({ email: Email, password: CurrentPassword });
export type LoginRequest = z.infer<typeof LoginRequest>;

export const LanguageRequest = z.object({ language: Locale });

export const LogoutResponse = z.object({ ok: z.literal(true) });
