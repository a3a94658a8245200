import { describe, expect, it } from "vitest";
import { findContactDetails, maskContactDetails } from "../../api/domain/contact-filter";

/**
 * api/domain/contact-filter.ts: contact details in members' messages, as members write them to get past a filter, in
 * the site's languages (locales/: Germanic en de nl da sv nb, Romance fr es it, and fi, pl). Each case is a message
 * and the language of its site; a caught case must leave none of its contact detail unmasked.
 */
type Case = [language: string, message: string];

const germanic: Case[] = [
  ["en", "call me 0612345678"],
  ["en", "my number is +44 7911 123456"],
  ["en", "text me on 07911 123 456 tonight"],
  ["en", "0 7 9 1 1 1 2 3 4 5 6"],
  ["en", "07911-123-456"],
  ["en", "07911.123.456 xx"],
  ["en", "(0161) 496 0000 after 6"],
  ["en", "zero seven nine one one one two three four five six"],
  ["en", "zero 7 nine 1 one 1 two 3 four 5 six"],
  ["en", "oh seven nine double... ok: 0 7 9 one 1 123 456"],
  ["en", "seven nine one one, one two three, four five six seven"],
  ["en", "my email is anna.smith@gmail.com"],
  ["en", "anna.smith at gmail dot com"],
  ["en", "anna.smith (at) gmail (dot) com"],
  ["en", "anna.smith [at] gmail [dot] com"],
  ["en", "anna smith99 @ hotmail . com"],
  ["en", "write to anna99 at hotmail"],
  ["en", "check www.annaphotos.com"],
  ["en", "https://annaphotos.net/me"],
  ["en", "annaphotos dot com for more"],
  ["en", "add me on snapchat: anna_b99"],
  ["en", "my snap is anna_b99"],
  ["en", "whatsapp me 07911123456"],
  ["en", "do you have WhatsApp?"],
  ["en", "w h a t s a p p?"],
  ["en", "wh@tsapp me babe"],
  ["en", "telegram @annab99"],
  ["en", "find me on insta: anna.b.99"],
  ["en", "my ig anna_b99"],
  ["en", "kik me: annab99"],
  ["en", "skype: anna.smith99"],
  ["en", "add me on signal"],
  ["en", "hit me up on telegram"],
  ["en", "@anna_b99 on there"],
  ["en", "wa.me/447911123456"],
  ["en", "t.me/annab99"],
  ["de", "ruf mich an unter 0151 23456789"],
  ["de", "meine Nummer ist 0151/23456789"],
  ["de", "null eins fünf eins zwei drei vier fünf sechs sieben acht"],
  ["de", "null 1 fünf 1 zwei 3 vier 5 sechs 7"],
  ["de", "+49 (0) 151 234 567 89"],
  ["de", "schreib mir: anna.mueller(at)gmx(punkt)de"],
  ["de", "anna.mueller at web punkt de"],
  ["de", "adde mich bei Snapchat anna_m"],
  ["de", "füg mich hinzu auf Insta"],
  ["de", "schreib mir auf WhatsApp"],
  ["de", "Telegramm: annam89"],
  ["nl", "bel me op 06-12345678"],
  ["nl", "mijn nummer is 06 12 34 56 78"],
  ["nl", "nul zes een twee drie vier vijf zes zeven acht"],
  ["nl", "nul 6 één 2 drie 4 vijf 6 zeven 8"],
  ["nl", "mail me: sanne(at)ziggo(punt)nl"],
  ["nl", "voeg me toe op snap"],
  ["nl", "app me op 0612345678"],
  ["nl", "whats app? sanne_1990"],
  ["da", "ring på 20 12 34 56 eller skriv"],
  ["da", "to nul en to tre fire fem seks"],
  ["da", "tilføj mig på snap: mette_dk"],
  ["da", "mette.hansen snabel-a gmail prik com"],
  ["sv", "ring 070-123 45 67"],
  ["sv", "noll sju noll ett två tre fyra fem sex sju"],
  ["sv", "lägg till mig på insta"],
  ["sv", "mitt nummer är 0701234567"],
  ["nb", "ring meg på 412 34 567"],
  ["nb", "fire en to tre fire fem seks sju"],
  ["nb", "legg meg til på snapchat"],
];

const romance: Case[] = [
  ["fr", "appelle-moi au 06 12 34 56 78"],
  ["fr", "mon numéro est 06.12.34.56.78"],
  ["fr", "mon numero c'est le 0612345678"],
  ["fr", "+33 6 12 34 56 78"],
  ["fr", "0 6 1 2 3 4 5 6 7 8"],
  ["fr", "zéro six douze... non: zéro six un deux trois quatre cinq six sept huit"],
  ["fr", "zero 6 un 2 trois 4 cinq 6 sept 8"],
  ["fr", "06-12-34-56-78"],
  ["fr", "06 douze: 0 6 1 2 34 56 78"],
  ["fr", "julie.martin@orange.fr"],
  ["fr", "julie.martin arobase orange point fr"],
  ["fr", "julie.martin (arobase) free (point) fr"],
  ["fr", "julie.martin [at] gmail [point] com"],
  ["fr", "ajoute-moi sur snap: julie_m75"],
  ["fr", "ajoute moi sur insta"],
  ["fr", "écris-moi sur whatsapp"],
  ["fr", "mon snap: julie_m75"],
  ["fr", "mon insta julie.m75"],
  ["fr", "telegram: juliem75"],
  ["fr", "va sur www.julie-cam.fr"],
  ["fr", "julie-cam point com"],
  ["fr", "t.me/juliem75"],
  ["fr", "whatsapp 0612345678 bisous"],
  ["fr", "sn4pch4t julie_m75"],
  ["fr", "S n a p c h a t ?"],
  ["fr", "skype julie.martin75"],
  ["es", "llámame al 612 34 56 78"],
  ["es", "mi número es +34 612 345 678"],
  ["es", "seis uno dos tres cuatro cinco seis siete ocho"],
  ["es", "seis 1 dos 3 cuatro 5 seis 7 ocho"],
  ["es", "612-345-678"],
  ["es", "6 1 2 . 3 4 5 . 6 7 8"],
  ["es", "lucia.garcia arroba gmail punto com"],
  ["es", "lucia.garcia@hotmail.es"],
  ["es", "lucia.garcia (arroba) yahoo (punto) es"],
  ["es", "agrégame en snap lucia_g"],
  ["es", "añádeme en insta"],
  ["es", "escríbeme por whatsapp"],
  ["es", "mi insta: lucia.g.92"],
  ["es", "tengo telegram @luciag92"],
  ["es", "www.luciag.com"],
  ["es", "kik: luciag92"],
  ["es", "wasap? no, whatsapp 612345678"],
  ["it", "chiamami al 347 123 4567"],
  ["it", "il mio numero è 3471234567"],
  ["it", "+39 347 123 4567"],
  ["it", "tre quattro sette uno due tre quattro cinque sei sette"],
  ["it", "tre 4 sette 1 due 3 quattro 5 sei 7"],
  ["it", "giulia.rossi chiocciola libero punto it"],
  ["it", "giulia.rossi@libero.it"],
  ["it", "aggiungimi su snapchat"],
  ["it", "scrivimi su telegram"],
  ["it", "il mio ig: giulia_r"],
  ["it", "347.123.4567"],
  ["it", "3 4 7 - 1 2 3 - 4 5 6 7"],
  ["it", "instagram.com/giulia_r"],
  ["it", "1nstagram giulia_r90"],
];

const others: Case[] = [
  ["fi", "soita 040 123 4567"],
  ["fi", "numeroni on 0401234567"],
  ["fi", "+358 40 123 4567"],
  ["fi", "nolla neljä nolla yksi kaksi kolme neljä viisi kuusi seitsemän"],
  ["fi", "nolla 4 nolla 1 kaksi 3 neljä 5 kuusi 7"],
  ["fi", "040-123-4567"],
  ["fi", "040.123.4567"],
  ["fi", "0 4 0 1 2 3 4 5 6 7"],
  ["fi", "laura.virtanen@gmail.com"],
  ["fi", "laura.virtanen at gmail piste com"],
  ["fi", "laura.virtanen (at) hotmail (piste) fi"],
  ["fi", "laura.virtanen miukumauku gmail piste com"],
  ["fi", "lisää minut snapchatissa"],
  ["fi", "snap: laura_v"],
  ["fi", "insta: laura.v.88"],
  ["fi", "whatsapp 0401234567"],
  ["fi", "telegram @laurav88"],
  ["fi", "kik: laurav88"],
  ["fi", "www.lauravirtanen.fi"],
  ["fi", "lauravirtanen piste fi"],
  ["fi", "t.me/laurav88"],
  ["fi", "wh4tsapp?"],
  ["fi", "skype laura.v88"],
  ["fi", "viber 0401234567"],
  ["fi", "signal: laurav88"],
  ["pl", "zadzwoń 512 345 678"],
  ["pl", "mój numer to 512345678"],
  ["pl", "+48 512 345 678"],
  ["pl", "pięć jeden dwa trzy cztery pięć sześć siedem osiem"],
  ["pl", "pięć 1 dwa 3 cztery 5 sześć 7 osiem"],
  ["pl", "512-345-678"],
  ["pl", "512.345.678"],
  ["pl", "5 1 2 3 4 5 6 7 8"],
  ["pl", "kasia.nowak@wp.pl"],
  ["pl", "kasia.nowak małpa onet kropka pl"],
  ["pl", "kasia.nowak (at) interia (kropka) pl"],
  ["pl", "kasia.nowak [małpa] gmail [kropka] com"],
  ["pl", "dodaj mnie na snapie"],
  ["pl", "napisz do mnie na whatsapp"],
  ["pl", "mój snap: kasia_n"],
  ["pl", "insta: kasia.n.95"],
  ["pl", "telegram @kasian95"],
  ["pl", "www.kasianowak.pl"],
  ["pl", "kasianowak kropka pl"],
  ["pl", "wa.me/48512345678"],
  ["pl", "sn@pchat kasia_n95"],
  ["pl", "skype: kasia.n95"],
  ["pl", "kik kasia_n95"],
  ["pl", "viber 512345678"],
  ["pl", "signal: kasian95"],
  ["pl", "jeden dwa trzy 4 5 6 siedem osiem dziewięć"],
];

/** Ordinary messages that mention numbers, "at", dots and the like, and must pass untouched. */
const passes: Case[] = [
  ["en", "Tickets are €25 each, shall we go?"],
  ["en", "I was born on 12.05.1990"],
  ["en", "Let's meet on 12.05.2024 at 20:30"],
  ["en", "I'm 34 and 1.85 m tall"],
  ["en", "I'm 34, 185 cm, 80 kg"],
  ["en", "see you at 8"],
  ["en", "see you at the bar at 8.30"],
  ["en", "I work from 9 to 5, then gym at 6"],
  ["en", "my top 3 films: 1. Alien 2. Heat 3. Up"],
  ["en", "It cost 1,250 euros in 2019"],
  ["en", "Room 214, floor 3"],
  ["en", "I have 2 cats and 1 dog"],
  ["en", "five or six times a week"],
  ["en", "I got the signal, thanks"],
  ["en", "oh snap, that's funny"],
  ["en", "add me to your favourites!"],
  ["en", "what's up? how are you?"],
  ["en", "I'm at home now. it was a long day"],
  ["en", "meet at the station at 19h"],
  ["en", "I'm 5'11\" and 34 years old"],
  ["de", "Ich bin 34 Jahre alt und 1,80 m groß"],
  ["de", "Treffen wir uns am 12.05.2024 um 20:30?"],
  ["de", "Das kostet 25 € pro Person"],
  ["de", "Ich habe zwei Kinder, 8 und 11"],
  ["nl", "Ik ben 34 en woon in Utrecht"],
  ["nl", "Zullen we om 20.30 uur afspreken?"],
  ["nl", "een biertje kost €4,50"],
  ["da", "Jeg er 34 år og bor i Aarhus"],
  ["sv", "Jag har sex katter och två hundar"],
  ["nb", "Vi ses klokka 20:30 på fredag"],
  ["fr", "On se voit à 20h30 ?"],
  ["fr", "J'ai 34 ans et je mesure 1,75 m"],
  ["fr", "né le 12/05/1990"],
  ["fr", "ça coûte 25 € la place"],
  ["es", "Tengo 34 años y mido 1,70"],
  ["es", "nos vemos a las 8"],
  ["es", "cuesta 25 euros"],
  ["it", "Ho 34 anni, ci vediamo alle 20:30"],
  ["it", "il 12.05.2024 sono libera"],
  ["fi", "Olen 34 vuotta ja asun Tampereella"],
  ["fi", "nähdään klo 20.30"],
  ["pl", "Mam 34 lata i 170 cm wzrostu"],
  ["pl", "spotkajmy się 12.05.2024 o 20:30"],
  ["pl", "bilet kosztuje 25 zł"],
];

/** Every span found, as the text it covers. */
const found = (language: string, message: string) => findContactDetails(message, [language]).map((span) => message.slice(span.start, span.end));

describe.each([
  ["Germanic languages", germanic],
  ["Romance languages", romance],
  ["Finnish and Polish", others],
])("contact details caught in %s", (_group, cases) => {
  it("has at least 50 cases", () => expect(cases.length).toBeGreaterThanOrEqual(50));
  it.each(cases)("[%s] %s", (language, message) => {
    expect(found(language, message).length).toBeGreaterThan(0);
    const masked = maskContactDetails(message, findContactDetails(message, [language]));
    // No run of 7 digits, no address and no link is left after masking.
    expect(masked.replace(/\D/g, "").length).toBeLessThan(7);
    expect(masked).not.toMatch(/@\w|www|https?:|\.(com|fr|de|nl|pl|fi|es|it|net)\b/i);
  });
});

describe("ordinary messages pass", () => {
  it.each(passes)("[%s] %s", (language, message) => expect(found(language, message)).toEqual([]));
});

describe("masking", () => {
  it("replaces each span and keeps the rest of the message", () => {
    const message = "hi! call me 06 12 34 56 78 or mail anna at gmail dot com, see you at 8";
    expect(maskContactDetails(message, findContactDetails(message, ["en"]))).toBe("hi! call me ••• or mail •••, see you at 8");
  });

  it("counts number words only in the site's languages", () => {
    // "to" is two in Danish and Norwegian, and an everyday word in English.
    expect(found("en", "from 20.30 to 22.30")).toEqual([]);
    expect(found("da", "to nul en to tre fire fem seks")).not.toEqual([]);
    expect(found("en", "to nul en to tre fire fem seks")).toEqual([]);
  });
});
