import type { Response } from "express";
import { and, asc, eq, ne, sql, TransactionRollbackError } from "drizzle-orm";
import {
  PackageAction,
  PackagesQuery,
  SiteAction,
  SiteQuery,
  type PackagesResponse,
  type SiteResponse,
  type SiteSettingsInput,
  type SitesResponse,
} from "#contract/staff-sites";
import type { Db } from "../db/client";
import { companies, creditPackages, sites } from "../db/schema";
import { announceSiteChange, newPushKeys, normaliseDomain, type SiteCache } from "../domain/sites";
import { columnsOfSettings, settingsOfRow } from "../domain/site-settings";
import { recordAudit } from "../domain/staff/audit";
import { takeFormKey } from "../domain/staff/form-keys";
import type { CatalogueOutcome } from "#contract/staff-catalogue";
import type { AuditAction } from "#contract/staff";
import type { StaffMember } from "../domain/staff/sessions";
import type { StaffRouteKit } from "./staff";
import { parseInput, sendError } from "./respond";
import { endpoints } from "#contract/endpoints/index";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
const json = (res: Response) => res.set("Cache-Control", "private, no-store");

/** Before and after of every setting (recordAudit keeps the changed ones). */
function settingChanges(before: Record<string, unknown> | null, after: Record<string, unknown>) {
  return Object.fromEntries(Object.keys(after).map((key) => [key, { before: before?.[key] ?? null, after: after[key] }]));
}

/**
 * The catalogue, part 2 (docs/staff.md, the catalogue): sites, every site setting, minimum message costs and credit packages,
 * for admins. Each change is one transaction with its audit entry and a NOTIFY (announceSiteChange) that makes every api
 * instance drop its cached copy of the site at commit; packages are read per request, so they need none.
 */

export function staffSiteRoutes(deps: { db: Db; siteCache: Pick<SiteCache, "clear"> }) {
  const { db, siteCache } = deps;

  /** Refusals of a site's settings that need the database: another site's domain, a company that does not exist, no default left. */
  async function settingsRefusal(input: SiteSettingsInput, siteId: number | null): Promise<Record<string, string[]> | null> {
    const domain = normaliseDomain(input.domain);
    const [taken] = await db
      .select({ id: sites.id })
      .from(sites)
      .where(and(eq(sites.domain, domain), siteId === null ? undefined : ne(sites.id, siteId)))
      .limit(1);
    if (taken) return { "settings.domain": ["Another site has this domain."] };
    const [company] = await db.select({ id: companies.id }).from(companies).where(eq(companies.id, input.company_id)).limit(1);
    if (!company) return { "settings.company_id": ["No company has this id."] };
    if (!input.is_default && siteId !== null) {
      const [current] = await db.select({ isDefault: sites.isDefault }).from(sites).where(eq(sites.id, siteId)).limit(1);
      if (current?.isDefault) return { "settings.is_default": ["One site answers unknown domains: make another site the default instead."] };
    }
    return null;
  }

  /** Writes a site's change: the audit entry, the other sites' default flag when this one takes it, the announcement. */
  async function afterSiteChange(tx: Tx, staff: StaffMember, ip: string | null, site: { id: number; isDefault: boolean }, entry: { action: AuditAction; changes?: Record<string, { before: unknown; after: unknown }> }) {
    if (site.isDefault) await tx.update(sites).set({ isDefault: false }).where(and(ne(sites.id, site.id), eq(sites.isDefault, true)));
    await recordAudit(tx, staff, ip, { action: entry.action, targetType: "site", targetId: site.id, siteId: site.id, changes: entry.changes });
    await announceSiteChange(tx, site.id);
  }

  const companyList = () => db.select({ id: companies.id, name: companies.name, support_phone: companies.supportPhone }).from(companies).orderBy(asc(companies.id));

  return ({ route, staffOf }: StaffRouteKit) => {
    route(endpoints.staffSites, async (_req, res) => {
      const [rows, companyRows] = await Promise.all([
        db
          .select({
            site: sites,
            // Spelled out: in a query without joins drizzle leaves column names unqualified, and "id" would be the package's.
            packages: sql<number>`(select count(*)::int from "credit_packages" p where p."site_id" = "sites"."id" and p."active")`,
          })
          .from(sites)
          .orderBy(asc(sites.id)),
        companyList(),
      ]);
      json(res).json({
        sites: rows.map(({ site, packages }) => ({
          id: site.id,
          name: site.name,
          domain: site.domain,
          niche: site.niche,
          countries: site.countries,
          signups: site.signups,
          is_default: site.isDefault,
          packages: Number(packages),
          updated_at: site.updatedAt.toISOString(),
        })),
        companies: companyRows,
      } satisfies SitesResponse);
    });

    route(endpoints.staffSite, async (req, res) => {
      const query = parseInput(res, SiteQuery, req.query);
      if (!query) return;
      const [[site], companyRows] = await Promise.all([db.select().from(sites).where(eq(sites.id, query.id)).limit(1), companyList()]);
      if (!site) return sendError(res, "not_found");
      json(res).json({
        id: site.id,
        settings: settingsOfRow(site),
        minimum_message_costs: Object.entries(site.minimumMessageCosts)
          .map(([country, cost]) => ({ country, costs: cost.costs, currency: cost.currency }))
          .sort((a, b) => a.country.localeCompare(b.country)),
        transaction_costs: Object.entries(site.transactionCosts).map(([method, costs]) => ({ method, fixed: costs.fixed, percent: costs.percent })),
        push_public_key: site.pushPublicKey && site.pushPrivateKey ? site.pushPublicKey : null,
        updated_at: site.updatedAt.toISOString(),
        companies: companyRows,
      } satisfies SiteResponse);
    });

    route(endpoints.changeSite, async (req, res) => {
      const body = parseInput(res, SiteAction, req.body);
      if (!body) return;
      const staff = staffOf(res);
      const ip = res.locals.clientIp ?? null;

      if (body.action !== "create" && !(await db.select({ id: sites.id }).from(sites).where(eq(sites.id, body.id)).limit(1)).length) return sendError(res, "not_found");
      if (body.action === "create" || body.action === "update") {
        const refusal = await settingsRefusal(body.settings, body.action === "update" ? body.id : null);
        if (refusal) return sendError(res, "validation_failed", { fields: refusal });
      }
      type Outcome = { id: number } | "not_found" | "changed" | "domain_taken";
      let outcome: Outcome;
      try {
        outcome = await db.transaction(async (tx): Promise<Outcome> => {
          if (body.action === "create") {
            const [row] = await tx
              .insert(sites)
              .values({ ...columnsOfSettings(body.settings), ...newPushKeys() })
              .returning({ id: sites.id, isDefault: sites.isDefault });
            if (!row) throw new Error("site insert returned nothing");
            await afterSiteChange(tx, staff, ip, row, { action: "site.create", changes: settingChanges(null, body.settings) });
            return { id: row.id };
          }
          // The row as it is now, locked: the conditional updates below compare with it.
          const [before] = await tx.select().from(sites).where(eq(sites.id, body.id)).for("update");
          if (!before) return "not_found";
          if (body.action === "update") {
            // Someone saved since this form was read: nothing of theirs is overwritten.
            if (before.updatedAt.getTime() !== new Date(body.updated_at).getTime()) return "changed";
            const [row] = await tx
              .update(sites)
              .set({ ...columnsOfSettings(body.settings), updatedAt: sql`now()` })
              .where(eq(sites.id, body.id))
              .returning({ id: sites.id, isDefault: sites.isDefault });
            if (!row) return "not_found";
            await afterSiteChange(tx, staff, ip, row, { action: "site.update", changes: settingChanges(settingsOfRow(before), body.settings) });
            return { id: row.id };
          }
          if (body.action === "message_cost" || body.action === "message_cost_remove") {
            const costs = { ...before.minimumMessageCosts };
            if (body.action === "message_cost") costs[body.country] = { costs: body.costs, currency: body.currency };
            else if (!(body.country in costs)) return "not_found";
            else delete costs[body.country];
            await tx.update(sites).set({ minimumMessageCosts: costs, updatedAt: sql`now()` }).where(eq(sites.id, body.id));
            await afterSiteChange(tx, staff, ip, { id: body.id, isDefault: false }, {
              action: body.action === "message_cost" ? "site.message_cost" : "site.message_cost_remove",
              changes: { [`minimum_message_costs.${body.country}`]: { before: before.minimumMessageCosts[body.country] ?? null, after: costs[body.country] ?? null } },
            });
            return { id: body.id };
          }
          if (body.action === "transaction_cost" || body.action === "transaction_cost_remove") {
            const costs = { ...before.transactionCosts };
            if (body.action === "transaction_cost") costs[body.method] = { fixed: body.fixed, percent: body.percent };
            else if (!(body.method in costs)) return "not_found";
            else delete costs[body.method];
            await tx.update(sites).set({ transactionCosts: costs, updatedAt: sql`now()` }).where(eq(sites.id, body.id));
            await afterSiteChange(tx, staff, ip, { id: body.id, isDefault: false }, {
              action: body.action === "transaction_cost" ? "site.transaction_cost" : "site.transaction_cost_remove",
              changes: { [`transaction_costs.${body.method}`]: { before: before.transactionCosts[body.method] ?? null, after: costs[body.method] ?? null } },
            });
            return { id: body.id };
          }
          const keys = body.keys === "generate" ? newPushKeys() : { pushPublicKey: null, pushPrivateKey: null };
          await tx
            .update(sites)
            .set({ ...keys, updatedAt: sql`now()` })
            .where(eq(sites.id, body.id));
          await afterSiteChange(tx, staff, ip, { id: body.id, isDefault: false }, {
            action: body.keys === "generate" ? "site.push_keys" : "site.push_keys_remove",
            changes: { push_keys: { before: before.pushPublicKey !== null, after: keys.pushPublicKey !== null } },
          });
          return { id: body.id };
        });
      } catch (error) {
        // Two admins giving two sites one domain at once: the unique index decides, the loser hears it like the check above.
        if (/sites_domain_idx|duplicate key/.test(String((error as { cause?: unknown }).cause ?? error))) outcome = "domain_taken";
        else throw error;
      }
      // This instance drops its copies at once: the NOTIFY reaches it too, but later, and the admin's next read comes here.
      if (typeof outcome === "object") siteCache.clear();
      if (outcome === "not_found") return sendError(res, "not_found");
      if (outcome === "domain_taken") return sendError(res, "validation_failed", { fields: { "settings.domain": ["Another site has this domain."] } });
      if (outcome === "changed") {
        return sendError(res, "validation_failed", { fields: { updated_at: ["Someone changed this site after you opened it. Reload the page to see their change, then make yours again."] } });
      }
      json(res)
        .status(body.action === "create" ? 201 : 200)
        .json({ ok: true, id: outcome.id });
    });

    route(endpoints.staffPackages, async (req, res) => {
      const query = parseInput(res, PackagesQuery, req.query);
      if (!query) return;
      const siteRows = await db.select({ id: sites.id, name: sites.name, countries: sites.countries }).from(sites).orderBy(asc(sites.id));
      const site = siteRows.find((row) => row.id === query.site_id) ?? siteRows[0] ?? null;
      const rows = site
        ? await db
            .select({
              pkg: creditPackages,
              payments: creditPackages.paymentsCount,
            })
            .from(creditPackages)
            .where(eq(creditPackages.siteId, site.id))
            .orderBy(asc(creditPackages.country), asc(creditPackages.position), asc(creditPackages.id))
        : [];
      json(res).json({
        site,
        sites: siteRows.map(({ id, name }) => ({ id, name })),
        packages: rows.map(({ pkg, payments: paid }) => ({
          id: pkg.id,
          country: pkg.country,
          credits: pkg.credits,
          amount: pkg.amount,
          currency: pkg.currency,
          mark: pkg.mark,
          position: pkg.position,
          active: pkg.active,
          payments: Number(paid),
        })),
      } satisfies PackagesResponse);
    });

    route(endpoints.changePackage, async (req, res) => {
      const body = parseInput(res, PackageAction, req.body);
      if (!body) return;
      const staff = staffOf(res);
      const ip = res.locals.clientIp ?? null;
      const done = await db.transaction(async (tx) => {
        if (body.action === "create") {
          const [site] = await tx.select({ id: sites.id }).from(sites).where(eq(sites.id, body.site_id)).limit(1);
          if (!site) return false;
          // Once per form: a second submit of the same form makes nothing (and says so).
          if (!(await takeFormKey(tx, staff, body.form_key))) return "replay" as const;
          const { action: _action, site_id: siteId, form_key: _key, ...fields } = body;
          // Members would see two identical cards: a package like one on sale is refused (the key goes back with the rollback).
          const [twin] = await tx
            .select({ id: creditPackages.id })
            .from(creditPackages)
            .where(
              and(
                eq(creditPackages.siteId, siteId),
                eq(creditPackages.country, fields.country),
                eq(creditPackages.credits, fields.credits),
                eq(creditPackages.amount, fields.amount),
                eq(creditPackages.currency, fields.currency),
                eq(creditPackages.active, true),
              ),
            )
            .limit(1);
          if (twin) return tx.rollback();
          const [row] = await tx.insert(creditPackages).values({ siteId, ...fields }).returning({ id: creditPackages.id });
          await recordAudit(tx, staff, ip, { action: "package.create", targetType: "credit_package", targetId: row?.id ?? null, siteId, changes: settingChanges(null, fields) });
          return true;
        }
        const [before] = await tx.select().from(creditPackages).where(eq(creditPackages.id, body.id)).for("update");
        if (!before) return false;
        const after =
          body.action === "update"
            ? { country: body.country, credits: body.credits, amount: body.amount, currency: body.currency, mark: body.mark, position: body.position }
            : { active: body.action === "enable" };
        // A payment copies credits and amount when it is made (api/domain/payments): changing a package never changes what was bought.
        await tx.update(creditPackages).set(after).where(eq(creditPackages.id, body.id));
        const previous: Record<string, unknown> = { ...before };
        await recordAudit(tx, staff, ip, { action: `package.${body.action}`, targetType: "credit_package", targetId: body.id, siteId: before.siteId, changes: settingChanges(previous, after) });
        return true;
      }).catch((error: unknown) => {
        if (error instanceof TransactionRollbackError) return "twin" as const;
        throw error;
      });
      if (done === "twin") {
        return sendError(res, "validation_failed", { fields: { credits: ["A package with these credits, price and currency is on sale in this country already: change that one, or end it first."] } });
      }
      if (!done) return sendError(res, "not_found");
      if (done === "replay") return void json(res).json({ ok: true, replay: true } satisfies CatalogueOutcome);
      json(res)
        .status(body.action === "create" ? 201 : 200)
        .json({ ok: true } satisfies CatalogueOutcome);
    });
  };
}
