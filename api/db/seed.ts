import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createAvatar } from "@dicebear/core";
import { personas } from "@dicebear/collection";
import { faker } from "@faker-js/faker";
import { City } from "country-state-city";
import { sql } from "drizzle-orm";
import type { Db } from "./client";
import { newPushKeys } from "../domain/sites";
import { companies, creditLedger, creditPackages, discountCodes, interests, photos, profiles, sites, users } from "./schema";
import { demoPackages } from "../domain/payments/catalogue";
import { placeRegion } from "../services/regions";
import { hashPassword } from "../domain/passwords";
import { seedConversations } from "./seed-chat";
import { nichePrefix } from "#contract/settings";
import { profileChoices } from "#contract/profile";

export const demoPassword = "demo-password";
export const demoAccounts = {
  free: { email: "demo@example.com", credits: 20, paid: false },
  premium: { email: "premium@example.com", credits: 500, paid: true },
} as const;
/** A member who signed up 5 hours before the demo data was made: past the time bonus, in the welcome discount (72 h). */
export const demoWelcomeAccount = { email: "welcome@example.com", credits: 20, signedUpHoursAgo: 5 } as const;

/** Demo discount codes (every site): one per rule a code can have, for trying /credits. */
export function demoDiscountCodes(now: Date): (typeof discountCodes.$inferInsert)[] {
  return [
    { code: "DEMO10", percentage: 10, validity: "once_per_user" },
    { code: "BIG20", percentage: 20, minimumOrderValue: 5000, currency: "EUR", validity: "once_per_user" },
    { code: "GERMANY15", percentage: 15, country: "DE", validity: "once_per_user" },
    { code: "FIRST100", percentage: 30, validity: "uses", maxUses: 100 },
    { code: "SUMMER", percentage: 15, expiresAt: new Date(now.getTime() - 86_400_000), validity: "once_per_user" },
  ];
}

const countries = ["NL", "BE", "DE", "AT", "CH", "GB", "IE", "US", "CA", "FR", "IT", "ES", "PL", "DK", "FI", "NO", "SE", "AU", "NZ"];
const memberCountries = ["NL", "NL", "NL", "BE", "DE", "DE", "GB", "US", "FR", "IT", "ES", "PL", "DK", "SE", "NO", "FI", "AT", "CH"];
export const interestKeys = [
  "travel", "music", "movies", "cooking", "sports", "fitness", "reading", "art", "dancing", "nature",
  "photography", "gaming", "wine", "fashion", "animals", "beach", "cars", "nightlife", "yoga", "theatre",
];
// The choices the profile form offers (contract/profile.ts), so demo profiles only hold valid values.
const { hair_color: hairColors, eye_color: eyeColors, body_type: bodyTypes, relationship_status: relationships, signup_reason: reasons } = profileChoices;

type Niche = { niche: number; name: string; gender: "male" | "female"; sexuality: "hetero" | "gay" | "lesbian" | "bi"; minAge: number; maxAge: number; bodyTypes?: string[] };
const nicheSites: Niche[] = [
  { niche: 1, name: "Rendezvous", gender: "female", sexuality: "hetero", minAge: 18, maxAge: 65 },
  { niche: 2, name: "Rendezvous She", gender: "female", sexuality: "lesbian", minAge: 18, maxAge: 60 },
  { niche: 3, name: "Rendezvous BDSM", gender: "female", sexuality: "bi", minAge: 21, maxAge: 60 },
  { niche: 4, name: "Rendezvous BBW", gender: "female", sexuality: "hetero", minAge: 21, maxAge: 65, bodyTypes: ["curvy", "large"] },
  { niche: 5, name: "Rendezvous GILF", gender: "female", sexuality: "hetero", minAge: 60, maxAge: 80 },
  { niche: 6, name: "Rendezvous MILF", gender: "female", sexuality: "hetero", minAge: 35, maxAge: 52 },
  { niche: 7, name: "Rendezvous Gay", gender: "male", sexuality: "gay", minAge: 18, maxAge: 65 },
];
const membersPerSite = 45;


/**
 * Demo data for an empty database: a company, the default site on localhost and one site per niche
 * 2-7 on <prefix>.localhost, members with generated avatars, and the two demo accounts.
 * Deterministic (seeded faker) and offline. Returns null when the database already has sites.
 */
export async function seedDemoData(db: Db, options: { uploadsDir: string; now?: Date }): Promise<{ sites: number; members: number } | null> {
  const [existing] = await db.select({ n: sql<number>`count(*)::int` }).from(sites);
  if ((existing?.n ?? 0) > 0) return null;
  faker.seed(20_231_201);
  const now = options.now ?? new Date();
  const photoDir = path.join(options.uploadsDir, "demo");
  mkdirSync(photoDir, { recursive: true });
  const demoHash = await hashPassword(demoPassword);

  let members = 0;
  await db.transaction(async (tx) => {
    const [company] = await tx
      .insert(companies)
      .values({
        name: "Rendezvous Media B.V.",
        address: "Herengracht 182",
        kvk: "81234567",
        city: "1016 BR Amsterdam",
        country: "NL",
        tradenames: nicheSites.map((s) => s.name),
        vatNumbers: ["NL862345678B01"],
        supportPhone: "+31 20 123 4567",
        deleteDiscount: 50,
        added: new Date("2024-03-15T09:00:00Z"),
      })
      .returning();
    if (!company) throw new Error("company insert returned nothing");
    await tx.insert(interests).values(interestKeys.map((key) => ({ key })));

    for (const n of nicheSites) {
      const prefix = nichePrefix[n.niche] ?? "";
      const domain = prefix ? `${prefix}.localhost` : "localhost";
      const [site] = await tx
        .insert(sites)
        .values({
          domain,
          isDefault: n.niche === 1,
          name: n.name,
          domainLanguage: "en-US",
          niche: n.niche,
          // A gift a new member's 20 signup credits can pay (the browser tests send gifts from fresh members).
          giftCredits: 15,
          indexTitle: `${n.name}: meet and chat with singles near you`,
          description: `${n.name} is where adults meet, flirt and chat. Sign up free and find your match today.`,
          countries,
          signups: "all",
          loggedOutSearch: false,
          // One demo site lets visitors who came with a traffic source (?network= or ?ref=) search (docs/product.md §6).
          loggedOutSearchTrafficsource: n.niche === 4,
          enableSiteEntryPopup: true,
          // docs/product.md §1 live-cam tiles: on the default site only (an offline partner address; the niche sites show none).
          camTiles:
            n.niche === 1
              ? { link: "https://cams.example/go?aff=rendezvous&network={network}&ref={ref}&sub1={sub1}", title: "Live now on cam", text: "Hundreds of models online right now. Free to watch.", cta: "Watch live", first: 4, every: 8 }
              : null,
          // docs/product.md §3 Payment transaction costs: Sofort and giropay (Germany, Austria) add theirs; the other methods none.
          transactionCosts: { sofort: { fixed: 25, percent: 1.4 }, giropay: { fixed: 0, percent: 1.2 } },
          minimumMessageCosts: { NL: { costs: 1.99, currency: "EUR" }, DE: { costs: 1.99, currency: "EUR" }, GB: { costs: 1.79, currency: "GBP" }, US: { costs: 1.99, currency: "USD" } },
          supportEmail: `support@${prefix ? `${prefix}.` : ""}rendezvous.example`,
          visibleProfileFields: ["city", "age", "relationship_status", "body_type", "hair_color", "eye_color", "interests"],
          visibleProfileNotes: [],
          // docs/product.md §3 search_fields: the gay site's members are all men, so its search has no gender filter;
          // the BBW site's search has no region filter.
          searchFields: n.niche === 7 ? ["country", "countryregion", "min_age", "max_age"] : n.niche === 4 ? ["gender", "country", "min_age", "max_age"] : ["gender", "country", "countryregion", "min_age", "max_age"],
          fictionalIcon: "",
          fictionalWarning: "This is a profile of our entertainment team: chats with it are for fun, and you cannot meet this person.",
          fictionalSingular: "entertainment profile",
          fictionalPlural: "entertainment profiles",
          // Web push on the niche sites; the default site shows the signup without the push step.
          ...(n.niche === 1 ? {} : newPushKeys()),
          refundDays: 14,
          deleteDiscount: 50,
          mailName: n.name,
          companyId: company.id,
        })
        .returning();
      if (!site) throw new Error("site insert returned nothing");
      // Four credit packages per country the site serves, in that country's currency.
      await tx.insert(creditPackages).values(demoPackages(site.id, countries));

      for (let i = 0; i < membersPerSite; i++) {
        const gender = n.niche === 1 && i % 5 === 4 ? "male" : n.gender;
        const country = faker.helpers.arrayElement(memberCountries);
        const city = faker.helpers.arrayElement(City.getCitiesOfCountry(country) ?? []);
        const createdAt = new Date(now.getTime() - (i * 11 + faker.number.int({ min: 0, max: 10 })) * 3_600_000);
        const [user] = await tx
          .insert(users)
          .values({
            siteId: site.id,
            email: `member${site.id}-${i}@demo.invalid`,
            status: "active",
            signupDate: createdAt,
            language: "en",
          })
          .returning({ id: users.id });
        if (!user) throw new Error("user insert returned nothing");
        const [profile] = await tx
          .insert(profiles)
          .values({
            userId: user.id,
            siteId: site.id,
            name: faker.person.firstName(gender),
            country,
            // The listed region of the city (the data files some cities under a level the region list does not hold).
            region: city ? placeRegion(country, city.stateCode) : null,
            city: city?.name ?? null,
            status: "active",
            dateOfBirth: faker.date.birthdate({ mode: "age", min: n.minAge, max: n.maxAge, refDate: now }).toISOString().slice(0, 10),
            gender,
            sexuality: gender === "male" && n.niche === 1 ? "hetero" : n.sexuality,
            aboutMe: faker.lorem.sentences({ min: 1, max: 3 }),
            interests: faker.helpers.arrayElements(interestKeys.map((_, idx) => idx + 1), { min: 2, max: 5 }),
            hairColor: faker.helpers.arrayElement(hairColors),
            eyeColor: faker.helpers.arrayElement(eyeColors),
            bodyType: faker.helpers.arrayElement(n.bodyTypes ?? bodyTypes),
            relationshipStatus: faker.helpers.arrayElement(relationships),
            tattoos: faker.helpers.arrayElement(profileChoices.tattoos),
            signupReason: faker.helpers.arrayElement(reasons),
            // Profiles run by the site (the like modal's auto-likes): every tenth, and on the default site some men too.
            fictional: i % 10 === 3 || i % 20 === 9,
            createdAt,
          })
          .returning({ id: profiles.id, siteId: profiles.siteId });
        if (!profile) throw new Error("profile insert returned nothing");
        // One in ten members has no photo, as real sites have.
        if (i % 10 !== 7) {
          const file = `demo/${profile.id}.svg`;
          writeFileSync(path.join(options.uploadsDir, file), avatar(`${site.id}-${i}`, gender));
          await tx.insert(photos).values({ profileId: profile.id, siteId: profile.siteId, filename: file, thumbFilename: file, status: "active", reviewedAt: new Date() });
        }
        members++;
      }
    }

    const [defaultSite] = await tx.select({ id: sites.id }).from(sites).where(sql`${sites.isDefault}`);
    if (!defaultSite) throw new Error("default site missing");
    const demoProfiles: { id: number; gender: "male" | "female" }[] = [];
    for (const [index, account] of Object.values(demoAccounts).entries()) {
      const [user] = await tx
        .insert(users)
        .values({
          siteId: defaultSite.id,
          email: account.email,
          passwordHash: demoHash,
          status: "active",
          credits: account.credits,
          paidUser: account.paid,
          signupDate: new Date(now.getTime() - (30 + index) * 86_400_000),
        })
        .returning({ id: users.id });
      if (!user) throw new Error("demo user insert returned nothing");
      await tx.insert(creditLedger).values({ userId: user.id, delta: account.credits, balanceAfter: account.credits, reason: account.paid ? "purchase" : "signup", reference: "demo-data" });
      const [profile] = await tx
        .insert(profiles)
        .values({
          userId: user.id,
          siteId: defaultSite.id,
          name: account.paid ? "Paula" : "Dennis",
          country: "NL",
          region: "NH",
          city: "Amsterdam",
          status: "active",
          dateOfBirth: account.paid ? "1985-06-14" : "1990-02-03",
          gender: account.paid ? "female" : "male",
          sexuality: "hetero",
          aboutMe: "Demo account.",
          createdAt: new Date(now.getTime() - (30 + index) * 86_400_000),
        })
        .returning({ id: profiles.id, siteId: profiles.siteId });
      if (!profile) throw new Error("demo profile insert returned nothing");
      demoProfiles.push({ id: profile.id, gender: account.paid ? "female" : "male" });
      const file = `demo/${profile.id}.svg`;
      writeFileSync(path.join(options.uploadsDir, file), avatar(account.email, account.paid ? "female" : "male"));
      await tx.insert(photos).values({ profileId: profile.id, siteId: profile.siteId, filename: file, thumbFilename: file, status: "active", reviewedAt: new Date() });
    }
    await seedConversations(tx, now, defaultSite.id, demoProfiles);

    const welcomeSignup = new Date(now.getTime() - demoWelcomeAccount.signedUpHoursAgo * 3_600_000);
    const [welcome] = await tx
      .insert(users)
      .values({ siteId: defaultSite.id, email: demoWelcomeAccount.email, passwordHash: demoHash, status: "active", credits: demoWelcomeAccount.credits, signupDate: welcomeSignup })
      .returning({ id: users.id });
    if (!welcome) throw new Error("demo user insert returned nothing");
    await tx.insert(creditLedger).values({ userId: welcome.id, delta: demoWelcomeAccount.credits, balanceAfter: demoWelcomeAccount.credits, reason: "signup", reference: "demo-data" });
    await tx.insert(profiles).values({
      userId: welcome.id,
      siteId: defaultSite.id,
      name: "Walter",
      country: "NL",
      region: "UT",
      city: "Utrecht",
      status: "active",
      dateOfBirth: "1982-09-21",
      gender: "male",
      sexuality: "hetero",
      aboutMe: "Demo account.",
      createdAt: welcomeSignup,
    });
    await tx.insert(discountCodes).values(demoDiscountCodes(now));
    // The demo's members and messages were written straight to their tables: the analytics rollups are made from them
    // (migration 0036's analytics_rebuild; api/domain/analytics/rollups.ts keeps them from here on).
    await tx.execute(sql`select analytics_rebuild()`);
  });
  return { sites: nicheSites.length, members: members + 3 };
}

function avatar(seed: string, gender: "male" | "female"): string {
  return createAvatar(personas, {
    seed,
    backgroundColor: ["f9c6d8", "d9c6f9", "c6e4f9", "f9e7c6"],
    facialHairProbability: gender === "male" ? 60 : 0,
    hair: gender === "female" ? ["long", "curly", "bobCut", "bobBangs", "curlyBun", "straightBun", "extraLong"] : ["bald", "balding", "buzzcut", "shortCombover", "fade", "mohawk", "curlyHighTop"],
  }).toString();
}

/** Demo packages for sites that have none (a database seeded before credit packages existed). */
export async function seedMissingPackages(db: Db): Promise<number> {
  const all = await db.select({ id: sites.id, countries: sites.countries }).from(sites);
  const have = new Set((await db.selectDistinct({ siteId: creditPackages.siteId }).from(creditPackages)).map((r) => r.siteId));
  const rows = all.filter((s) => !have.has(s.id)).flatMap((s) => demoPackages(s.id, s.countries));
  if (rows.length) await db.insert(creditPackages).values(rows);
  return rows.length;
}

/** Demo discount codes for a database seeded before discount codes existed. */
export async function seedMissingDiscountCodes(db: Db): Promise<number> {
  const [any] = await db.select({ id: discountCodes.id }).from(discountCodes).limit(1);
  if (any) return 0;
  const rows = demoDiscountCodes(new Date());
  await db.insert(discountCodes).values(rows);
  return rows.length;
}
