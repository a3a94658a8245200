import emailSpellChecker from "@zootools/email-spell-checker";

/** A likely intended address for a mistyped one ("jan@gmial.com" -> "jan@gmail.com"), or null. */
export function suggestEmail(email: string | undefined): string | null {
  if (!email || !email.includes("@")) return null;
  const suggestion = emailSpellChecker.run({ email: email.trim() });
  return suggestion && suggestion.full !== email.trim().toLowerCase() ? suggestion.full : null;
}
