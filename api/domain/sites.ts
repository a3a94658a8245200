import { createECDH } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Db, Listen } from "../db/client";
import { companies, interests, sites } from "../db/schema";
import type { CompanyInfo, Interest } from "#contract/settings";

export type Site = typeof sites.$inferSelect;
type SiteBundle = { site: Site; company: CompanyInfo; interests: Interest[] };

/**
 * How long an api instance reuses a site's row. A staff change (api/http/staff-sites.ts) announces itself on the
 * bus (siteSettingsChannel), and every instance drops its copies then; the time bound only covers a bus that was
 * down (a reconnect drops them too).
 */
const cacheMs = 60_000;
/** Any Host or ?domain= makes a key: bounded, so made-up domains cannot grow the cache without end. */
const cacheMaxEntries = 1000;

/** The NOTIFY channel of site changes (docs/staff.md, the catalogue): its payload is the site id. */
export const siteSettingsChannel = "site_settings";

/** Every live cache of this process (tests run several api instances in one process; clearSiteCache reaches all). */
const caches = new Set<SiteCache>();

/** One api instance's sites by domain (www. ignored; an unknown domain gets the default site). */
export class SiteCache {
  private readonly entries = new Map<string, { at: number; value: Promise<SiteBundle> }>();

  constructor(private readonly db: Db) {
    caches.add(this);
  }

  get(domain: string): Promise<SiteBundle> {
    const key = normaliseDomain(domain);
    const hit = this.entries.get(key);
    if (hit && Date.now() - hit.at < cacheMs) return hit.value;
    const value = loadSite(this.db, key);
    if (!hit && this.entries.size >= cacheMaxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { at: Date.now(), value });
    value.catch(() => this.entries.delete(key));
    return value;
  }

  clear(): void {
    this.entries.clear();
  }

  /** Drops every copy whenever a site changes anywhere (and after the bus reconnects: a change may have passed unheard). */
  listen(listen: Listen): Promise<() => Promise<void>> {
    return listen(siteSettingsChannel, () => this.clear(), () => this.clear());
  }

  close(): void {
    caches.delete(this);
  }
}

/** Announces a site change to every api instance; call it inside the change's transaction (heard at commit). */
export async function announceSiteChange(tx: Pick<Db, "execute">, siteId: number): Promise<void> {
  await tx.execute(sql`select pg_notify(${siteSettingsChannel}, ${String(siteId)})`);
}

/** Drops the cached sites of every api instance in this process (tests that change a site with SQL). */
export function clearSiteCache(): void {
  for (const cache of caches) cache.clear();
}

/** A VAPID key pair for web push (docs/product.md §3 push public key), as base64url of the raw P-256 keys. */
export function newPushKeys(): { pushPublicKey: string; pushPrivateKey: string } {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  return { pushPublicKey: ecdh.getPublicKey().toString("base64url"), pushPrivateKey: ecdh.getPrivateKey().toString("base64url") };
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
