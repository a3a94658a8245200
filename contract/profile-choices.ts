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
