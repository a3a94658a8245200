import type { Settings } from "#contract/settings";

/**
 * docs/product.md §2 signup steps after step 0 (create account), each skippable, then /complete-signup.
 * Push (1) needs the site's push key; the photo step (2) uploads as /profile/photos does.
 */
export const signupSteps = [
  { step: 1, key: "push", available: (s: Pick<Settings, "push_public_key">) => Boolean(s.push_public_key) },
  { step: 2, key: "photo", available: () => true },
  { step: 3, key: "personal", available: () => true },
  { step: 4, key: "about", available: () => true },
] as const;

export type SignupStepKey = (typeof signupSteps)[number]["key"];

/** The path after step `current`: the next available step, or the complete step. */
export function nextSignupPath(current: number, settings: Pick<Settings, "push_public_key">): string {
  const next = signupSteps.find((s) => s.step > current && s.available(settings));
  return next ? `/signup/${next.step}` : "/complete-signup";
}
