import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { companies, interests, sites } from "../db/schema";
import type { CompanyInfo, Interest } from "#contract/settings";

export type Site = typeof sites.$inferSelect;
type SiteBundle = { site: Site; company: CompanyInfo; interests: Interest[] };

const cacheMs = 10_000;
/** Any Host or ?domain= makes a key: bounded, so made-up domains cannot grow the cache without end. */
const cacheMaxEntries = 1000;
const cache = new Map<string, { at: number; value: Promise<SiteBundle> }>();

/** The site for a domain (www. ignored), or the default site for an unknown domain. Cached briefly. */
export function siteForDomain(db: Db, domain: string): Promise<SiteBundle> {
  const key = normaliseDomain(domain);
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < cacheMs) return hit.value;
  const value = loadSite(db, key);
  if (!hit && cache.size >= cacheMaxEntries) cache.delete(cache.keys().next().value as string);
  cache.set(key, { at: Date.now(), value });
  value.catch(() => cache.delete(key));
  return value;
}

export function clearSiteCache(): void {
  cache.clear();
}

export function normaliseDomain(domain: string): string {
  return domain.trim().toLowerCase().replace(/:\d+$/, "").replace(/^www\./, "");
}

async function loadSite(db: Db, domain: string): Promise<SiteBundle> {
  let [site] = await db.select().from(sites).where(eq(sites.domain, domain)).limit(1);
  if (!site) [site] = await db.select().from(sites).where(eq(sites.isDefault, true)).limit(1);
  if (!site) throw new Error("No default site configured: run the seed or insert a site with is_default");
  const [company] = await db.select().from(companies).where(eq(companies.id, site.companyId)).limit(1);
  if (!company) throw new Error(`Site ${site.id} has no company`);
  const interestRows = await db.select().from(interests).orderBy(interests.id);
  return { site, company: toCompanyInfo(company), interests: interestRows };
}

export function toCompanyInfo(company: typeof companies.$inferSelect): CompanyInfo {
  return {
    id: company.id,
    name: company.name,
    address: company.address,
    kvk: company.kvk,
    city: company.city,
    country: company.country,
    tradenames: company.tradenames,
    vat_numbers: company.vatNumbers,
    support_phone: company.supportPhone,
    delete_discount: company.deleteDiscount,
    added: company.added.toISOString(),
  };
}
