/*
 * Contact details in a member's chat message (docs/staff.md, contact details in chat): phone numbers, e-mail
 * addresses, web addresses and messenger handles, also disguised: digits apart ("0 6-12.34"), digits as words in the
 * site's languages, mixed with digits, "at"/"(at)"/"[at]"/"dot" for @ and ".", and messenger names spelled apart or
 * with look-alike characters. What is found is a list of spans of the text, which the send masks or holds
 * (api/domain/chat.ts). No library: a phone library (libphonenumber-js findNumbers) only finds numbers written with
 * digits, which this finds too as a run of digits, and the disguises need the words and separators below anyway.
 */

export type ContactKind = "phone" | "email" | "url" | "handle";
export type ContactSpan = { start: number; end: number; kind: ContactKind };

/** Digits as words, per language (accents folded: "fünf" is looked up as "funf"). */
const numberWords: Record<string, Record<string, number>> = {
  en: { zero: 0, oh: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9 },
  de: { null: 0, eins: 1, zwei: 2, zwo: 2, drei: 3, vier: 4, funf: 5, fuenf: 5, sechs: 6, sieben: 7, acht: 8, neun: 9 },
  nl: { nul: 0, een: 1, twee: 2, drie: 3, vier: 4, vijf: 5, zes: 6, zeven: 7, acht: 8, negen: 9 },
  da: { nul: 0, en: 1, et: 1, to: 2, tre: 3, fire: 4, fem: 5, seks: 6, syv: 7, otte: 8, ni: 9 },
  sv: { noll: 0, ett: 1, en: 1, tva: 2, tre: 3, fyra: 4, fem: 5, sex: 6, sju: 7, atta: 8, nio: 9 },
  nb: { null: 0, en: 1, ett: 1, ei: 1, to: 2, tre: 3, fire: 4, fem: 5, seks: 6, sju: 7, syv: 7, atte: 8, ni: 9 },
  fr: { zero: 0, un: 1, une: 1, deux: 2, trois: 3, quatre: 4, cinq: 5, six: 6, sept: 7, huit: 8, neuf: 9 },
  es: { cero: 0, uno: 1, una: 1, dos: 2, tres: 3, cuatro: 4, cinco: 5, seis: 6, siete: 7, ocho: 8, nueve: 9 },
  it: { zero: 0, uno: 1, una: 1, due: 2, tre: 3, quattro: 4, cinque: 5, sei: 6, sette: 7, otto: 8, nove: 9 },
  fi: { nolla: 0, yksi: 1, kaksi: 2, kolme: 3, nelja: 4, viisi: 5, kuusi: 6, seitseman: 7, kahdeksan: 8, yhdeksan: 9 },
  pl: { zero: 0, jeden: 1, jedna: 1, dwa: 2, dwie: 2, trzy: 3, cztery: 4, piec: 5, szesc: 6, siedem: 7, osiem: 8, dziewiec: 9 },
};

/** Number words that are also everyday words (an article, "to", "and"): they join a run of digits but make none alone. */
const weakWords = new Set(["oh", "een", "en", "et", "to", "un", "une", "uno", "una", "ei", "ni", "sex", "fire", "null", "sei", "due", "otto"]);

/** "at" and "dot" as members write them to hide an address. */
const atWords = ["at", "a", "arroba", "arobase", "chiocciola", "klammeraffe", "apenstaartje", "snabel-a", "snabela", "malpa", "małpa", "miukumauku", "ät"];
const dotWords = ["dot", "punkt", "punt", "point", "punto", "piste", "prik", "kropka", "pisteen", "puntje"];
const mailProviders = ["gmail", "googlemail", "hotmail", "yahoo", "outlook", "live", "msn", "icloud", "me", "aol", "gmx", "web", "t-online", "protonmail", "proton", "orange", "wanadoo", "free", "libero", "virgilio", "telenet", "ziggo", "kpnmail", "onet", "wp", "interia", "o2", "seznam", "yandex", "mail"];
/** Endings that are everyday words too ("it", "me", "de"): only with www., a scheme or the dot written out. */
const wordTlds = new Set(["it", "me", "at", "be", "no", "de", "es", "co", "live", "fun", "page", "site", "club", "app", "link", "online", "info"]);
const tlds = ["com", "net", "org", "info", "biz", "io", "me", "co", "de", "nl", "be", "fr", "es", "it", "pt", "pl", "at", "ch", "uk", "dk", "se", "no", "fi", "eu", "ru", "tv", "xyz", "app", "ly", "link", "cc", "online", "site", "club", "fun", "live", "page"];

/** Messenger names: unmistakable ones count on their own; everyday words ("snap", "signal") only with a handle or "on/my ...". */
const messengers = ["whatsapp", "whatsap", "watsapp", "whatapp", "telegram", "telegramm", "snapchat", "instagram", "kik", "skype", "viber", "wechat", "threema", "wickr", "facebook", "messenger", "onlyfans", "tiktok"];
const looseMessengers = ["whats", "wa", "wapp", "tg", "snap", "sc", "insta", "ig", "signal", "fb", "telly", "tele"];
/** "add me on", "write me on": an invitation to go elsewhere, in the 11 languages. */
const invitations = [
  "add me on", "add me at", "hit me up on", "text me on", "message me on", "msg me on", "find me on", "contact me on", "reach me on", "write me on", "my number is", "call me on", "call me at",
  "füg mich hinzu", "fug mich hinzu", "adde mich", "schreib mir auf", "schreib mir bei", "meine nummer ist", "meine handynummer", "ruf mich an unter",
  "voeg me toe", "add me op", "stuur me op", "app me op", "app me", "mijn nummer is", "mijn 06 is", "bel me op",
  "tilføj mig", "tilfoj mig", "skriv til mig på", "mit nummer er",
  "lägg till mig", "lagg till mig", "adda mig", "skriv till mig på", "mitt nummer är",
  "legg meg til", "skriv til meg på", "nummeret mitt er",
  "ajoute-moi", "ajoute moi", "ajoutes moi", "écris-moi sur", "ecris moi sur", "mon numéro est", "mon numero est", "mon numéro c'est", "mon numero c'est",
  "agrégame", "agregame", "añádeme", "anademe", "escríbeme al", "escribeme al", "escríbeme por", "mi número es", "mi numero es",
  "aggiungimi", "scrivimi su", "il mio numero è", "il mio numero e",
  "lisää minut", "lisaa minut", "numeroni on",
  "dodaj mnie", "napisz do mnie na", "mój numer to", "moj numer to",
];

const fold = (word: string) =>
  word
    .toLowerCase()
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/ø/g, "o")
    .replace(/æ/g, "ae")
    .replace(/ł/g, "l");

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The characters members put between the letters or digits of something they hide. */
const gap = "[\\s._\\-*/\\\\|~•·'`,]{0,3}";
/** Look-alike characters of a letter ("wh@tsapp", "1nsta", "sn4p"). */
const lookAlike: Record<string, string> = { a: "[aàáâä@4]", e: "[eèéêë3]", i: "[iìíîï1!l|]", o: "[oòóôö0]", s: "[s$5z]", t: "[t7]", g: "[g9]", k: "[kc]", c: "[ck]" };
/** A messenger's name with gaps and look-alikes between its letters, as a pattern. */
const spelled = (name: string) => [...name].map((letter) => lookAlike[letter] ?? escape(letter)).join(gap);

const words = (list: string[]) => list.map((word) => escape(word).replace(/ /g, "\\s+")).join("|");

/** "." between the parts of an address: a dot, or "dot"/"(dot)"/"[punkt]" written out. */
const dotSeparator = `(?:\\.|\\s*[([{<]\\s*(?:${words(dotWords)})\\s*[)\\]}>]\\s*|\\s(?:${words(dotWords)})\\s)`;
/** "@" of an address: @, "(at)", "[at]", or " at " written out. */
const atSeparator = `(?:\\s*@\\s*|\\s*[([{<]\\s*(?:${words(atWords)})\\s*[)\\]}>]\\s*|\\s(?:${words(atWords.filter((w) => w !== "a"))})\\s)`;

const patterns: { kind: ContactKind; regex: RegExp }[] = [
  // An address as it is written (name@host.tld, spaces around its signs too), or with @ and the dots in words or brackets.
  { kind: "email", regex: /(?<![\p{L}\d._%+-])[\p{L}\d._%+-]{1,64}\s*@\s*[\p{L}\d-]{1,63}(?:\s*\.\s*[\p{L}\d-]{1,63}){0,8}\s*\.\s*\p{L}{2,10}(?![\p{L}\d])/giu },
  { kind: "email", regex: new RegExp(`(?<![\\p{L}\\d._%+-])[\\p{L}\\d._%+-]{2,64}${atSeparator}[\\p{L}\\d-]{2,63}(?:${dotSeparator}[\\p{L}\\d-]{2,63}){0,8}${dotSeparator}(?:${tlds.join("|")})(?![\\p{L}\\d])`, "giu") },
  // "name at gmail", "name (at) hotmail": the provider names the address even without its ending.
  { kind: "email", regex: new RegExp(`(?<![\\p{L}\\d._%+-])[\\p{L}\\d._%+-]{2,64}${atSeparator}(?:${words(mailProviders)})(?![\\p{L}\\d])`, "giu") },
  // Web addresses: with a scheme, www., a known short link, or a name and an ending (with everyday-word endings only written out).
  { kind: "url", regex: /\b(?:https?|ftp)\s*:\s*\/\/\S+/giu },
  { kind: "url", regex: new RegExp(`(?<![\\p{L}\\d])w\\s*w\\s*w${dotSeparator}[\\p{L}\\d-]+\\S*`, "giu") },
  { kind: "url", regex: /(?<![\p{L}\d])(?:wa\.me|t\.me|bit\.ly|linktr\.ee|onlyfans\.com|snapchat\.com|instagram\.com)(?:\/\S*)?/giu },
  { kind: "url", regex: new RegExp(`(?<![\\p{L}\\d@.])[\\p{L}\\d-]{3,63}(?:\\.[\\p{L}\\d-]{2,63}){0,8}\\.(?:${tlds.filter((tld) => !wordTlds.has(tld)).join("|")})(?![\\p{L}\\d])(?:/\\S*)?`, "giu") },
  { kind: "url", regex: new RegExp(`(?<![\\p{L}\\d])[\\p{L}\\d-]{2,63}(?:\\s*[([{<]\\s*(?:${words(dotWords)})\\s*[)\\]}>]\\s*|\\s(?:${words(dotWords)})\\s)(?:${tlds.join("|")})(?![\\p{L}\\d])`, "giu") },
  // Messenger names, spelled apart or with look-alikes, with the handle after them when there is one.
  {
    kind: "handle",
    regex: new RegExp(
      `(?<![\\p{L}\\d])(?:${messengers.map(spelled).join("|")})(?![\\p{L}])(?:\\s*(?:[:=]|-|is|ist|es|est|är|er|on|to|è)\\s*@?[\\p{L}\\d._]{2,}|\\s+@?[\\p{L}._]*[\\d_][\\p{L}\\d._]*|\\s*@[\\p{L}\\d._]{2,})?`,
      "giu",
    ),
  },
  { kind: "handle", regex: new RegExp(`(?<![\\p{L}\\d])(?:${looseMessengers.join("|")})\\s*(?:[:=]\\s*@?[\\p{L}\\d._]{2,}|@[\\p{L}\\d._]{2,}|\\s+@?[\\p{L}._]*[\\d_][\\p{L}\\d._]*)`, "giu") },
  {
    kind: "handle",
    regex: new RegExp(`(?<![\\p{L}\\d])(?:on|my|via|op|auf|sur|en|su|no|na|på|pa|mein|mijn|mon|mi|il mio|moj|mój)\\s+(?:${looseMessengers.filter((name) => name !== "signal").join("|")})(?![\\p{L}\\d])(?:\\s*[:=]?\\s*@?[\\p{L}\\d._]*[\\d_@][\\p{L}\\d._]*)?`, "giu"),
  },
  // "add me on ...", "my number is ...": the invitation and what follows it (up to three words).
  { kind: "handle", regex: new RegExp(`(?<![\\p{L}])(?:${words(invitations)})(?![\\p{L}])(?:\\s*[:\\-]?\\s*[^\\s.,!?]+){0,3}`, "giu") },
  // A handle on its own: @name (not an e-mail's, which the patterns above found).
  { kind: "handle", regex: /(?<![\p{L}\d._%+-])@[\p{L}\d._]{3,}/giu },
];

/** What stops a run of digits from being a phone number: a date, a time, a price or a measure is no phone number. */
const notPhone = [
  /\b(?:[0-2]?\d|3[01])[./-](?:0?\d|1[0-2])[./-](?:\d{4}|\d{2})(?![./-]\d)/gu,
  /\b\d{4}-\d{2}-\d{2}\b/gu,
  /\b(?:[01]?\d|2[0-3])\s?[:h]\s?[0-5]\d\b/giu,
  /[€$£]\s?\d{1,3}(?:[.,']?\d{3})*(?:[.,]\d{1,2})?/gu,
  /(?<![\d.,])\d{1,3}(?:[.,']?\d{3})*(?:[.,]\d{1,2})?\s?(?:€|\$|£|eur|euro|euros|usd|dollars?|kr|kroner|kronor|zł|zl|pln|chf|sek|nok|dkk)(?![\p{L}])/giu,
  /(?<![\d.,])\d{1,3}(?:[.,]\d{1,2})?\s?(?:cm|mm|m|km|kg|lbs?|ft|years?|yrs?|jahre|jaar|ans|años|anni|lat|år|vuotta|%)(?![\p{L}])/giu,
];

type Token = { start: number; end: number; digits: string; weak: boolean };

/** Digits and number words of `text` as tokens, in the languages given (English always). */
function digitTokens(text: string, languages: readonly string[]): Token[] {
  const lookup = new Map<string, number>();
  for (const language of new Set(["en", ...languages])) for (const [word, digit] of Object.entries(numberWords[language] ?? {})) lookup.set(word, digit);
  const tokens: Token[] = [];
  for (const match of text.matchAll(/\d+|\p{L}+/gu)) {
    const value = match[0];
    const start = match.index;
    if (/^\d+$/.test(value)) tokens.push({ start, end: start + value.length, digits: value, weak: false });
    else {
      const folded = fold(value);
      const digit = lookup.get(folded);
      // "O6": a letter O between digits is a zero.
      if (digit !== undefined) tokens.push({ start, end: start + value.length, digits: String(digit), weak: weakWords.has(folded) });
      else if (folded === "o" || folded === "l") tokens.push({ start, end: start + value.length, digits: folded === "o" ? "0" : "1", weak: true });
    }
  }
  return tokens;
}

/** Runs of at least seven digits (words and digits mixed, apart by spaces, dots, dashes or brackets): phone numbers. */
function phoneSpans(text: string, languages: readonly string[]): ContactSpan[] {
  // Dates, times, prices and measures become a character that no run crosses (the same length keeps positions).
  let blanked = text;
  for (const regex of notPhone) blanked = blanked.replace(regex, (found) => "#".repeat(found.length));
  const tokens = digitTokens(blanked, languages);
  const spans: ContactSpan[] = [];
  let run: Token[] = [];
  const close = () => {
    const strong = run.filter((token) => !token.weak);
    const digits = run.reduce((sum, token) => sum + token.digits.length, 0);
    // At least a third of a run are digits or unmistakable number words. Trailing or leading everyday words are no part of the number ("call me on 06..." keeps "on").
    while (run.length && run[0]!.weak) run.shift();
    while (run.length && run[run.length - 1]!.weak) run.pop();
    if (run.length && digits >= 7 && strong.length * 3 >= run.length) {
      let start = run[0]!.start;
      // A leading + or ( belongs to the number.
      while (start > 0 && /[+(]/.test(text[start - 1]!)) start -= 1;
      spans.push({ start, end: run[run.length - 1]!.end, kind: "phone" });
    }
    run = [];
  };
  for (const token of tokens) {
    const previous = run[run.length - 1];
    if (previous && !/^[\s.\-_/()+*|~•·,'\u20e3\ufe0f]{0,4}$/u.test(blanked.slice(previous.end, token.start))) close();
    run.push(token);
  }
  close();
  return spans;
}

/** The spans of contact details in a member's message; `languages` are the site's (number words are looked up in them). */
export function findContactDetails(text: string, languages: readonly string[] = []): ContactSpan[] {
  const found: ContactSpan[] = [];
  for (const { kind, regex } of patterns) for (const match of text.matchAll(regex)) if (match[0].trim()) found.push({ start: match.index, end: match.index + match[0].trimEnd().length, kind });
  found.push(...phoneSpans(text, languages));
  // Overlapping spans become one (the first one's kind).
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: ContactSpan[] = [];
  for (const span of found) {
    const last = merged[merged.length - 1];
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}

/** The mark a masked span shows instead of what it hid. */
export const contactMask = "•••";

/** `text` with each span of contact details replaced by the mask. */
export function maskContactDetails(text: string, spans: readonly ContactSpan[]): string {
  let masked = "";
  let at = 0;
  for (const span of spans) {
    masked += text.slice(at, span.start) + contactMask;
    at = span.end;
  }
  return masked + text.slice(at);
}
