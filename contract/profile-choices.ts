/*
 * The choices of the optional profile fields, as plain data: pages that only show them (the member
 * page) import this without zod; contract/profile.ts builds the schemas on it.
 */

/** The values a member can choose for each choice field of docs/product.md §3 Profile (hair colour ... reason for sign-up). */
export const profileChoices = {
  hair_color: ["blond", "brown", "black", "red", "grey"],
  eye_color: ["blue", "brown", "green", "grey", "hazel"],
  body_type: ["slim", "athletic", "average", "curvy", "large"],
  relationship_status: ["single", "relationship", "married", "divorced", "widowed"],
  tattoos: ["none", "some", "many"],
  signup_reason: ["dating", "chat", "friendship", "adventure"],
} as const;
export type ProfileChoiceField = keyof typeof profileChoices;
export const profileChoiceFields = Object.keys(profileChoices) as ProfileChoiceField[];

/**
 * The optional profile fields a site shows only when settings.visible_profile_fields names them.
 * Name, date of birth, gender, sexuality, location and about me are always part of a profile.
 */
export const optionalProfileFields = ["interests", ...profileChoiceFields] as const;
export type OptionalProfileField = (typeof optionalProfileFields)[number];

/** The sexualities a member can choose (contract/user.ts Sexuality), in the order forms offer them. */
export const sexualities = ["hetero", "gay", "lesbian", "bi"] as const;
