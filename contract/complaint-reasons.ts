/** What a complaint can be about (keys of the complaints namespace's reasons). Without zod: the complaints page's form reads it. */
export const complaintReasons = ["illegal", "underage", "non_consensual", "copyright", "impersonation", "privacy", "spam", "other"] as const;
