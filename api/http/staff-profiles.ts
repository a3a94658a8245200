import path from "node:path";
import { randomBytes } from "node:crypto";
import type { Response } from "express";
import { and, asc, desc, eq, inArray, lt } from "drizzle-orm";
import { ageOn } from "#contract/age";
import { photoMaxMegabytes, photoUploadField } from "#contract/photos";
import { SiteRunProfileAction, SiteRunProfilesQuery, type SiteRunProfile, type SiteRunProfilesResponse } from "#contract/staff-profiles";
import type { Db } from "../db/client";
import { photos, profiles, sites, users } from "../db/schema";
import { addPhoto, deletePhoto, processPhoto } from "../domain/photos";
import { recordAudit } from "../domain/staff/audit";
import { onStaffSites, sitesOf } from "../domain/staff/photo-review";
import type { StaffMember } from "../domain/staff/sessions";
import { localDiskStorage, type FileStorage } from "../services/storage";
import { IdQuery, type StaffRouteKit } from "./staff";
import { photoUploadReader } from "./upload";
import { parseInput, sendError } from "./respond";

const json = (res: Response) => res.set("Cache-Control", "private, no-store");
const readUpload = photoUploadReader(photoUploadField);

/**
 * Site-run profiles (docs/staff.md): site-run profiles in the console (admins). A profile needs an account row (users):
 * it gets one that can never log in (no password, an address under .invalid). Photos go through the members' own
 * pipeline (decoded by content, re-encoded without metadata) and count against the premium limit; the console's
 * photos are reviewed (an admin put them there).
 */

/** The site-run profiles listed a page. */
const siteRunPageSize = 100;

export function staffProfileRoutes(deps: { db: Db; dataDir: string; storage?: FileStorage }) {
  const { db } = deps;
  const storage = deps.storage ?? localDiskStorage(path.resolve(deps.dataDir, "uploads"));

  async function profileJson(staff: StaffMember, profileId: number): Promise<SiteRunProfile | null> {
    const [row] = await db
      .select({ profile: profiles, siteName: sites.name, cdn: sites.cdnPrefix })
      .from(profiles)
      .innerJoin(sites, eq(sites.id, profiles.siteId))
      .where(and(eq(profiles.id, profileId), eq(profiles.fictional, true), onStaffSites(profiles.siteId, sitesOf(staff))))
      .limit(1);
    if (!row) return null;
    const photoRows = await db.select().from(photos).where(and(eq(photos.profileId, profileId), eq(photos.status, "active"))).orderBy(asc(photos.position), asc(photos.id));
    return siteRunJson(row, photoRows);
  }

  /** A site-run profile as the console shows it, from its row and its active photos in order. */
  function siteRunJson(row: { profile: typeof profiles.$inferSelect; siteName: string; cdn: string }, photoRows: (typeof photos.$inferSelect)[]): SiteRunProfile {
    const p = row.profile;
    return {
      id: p.id,
      site: { id: p.siteId, name: row.siteName },
      name: p.name,
      gender: p.gender,
      date_of_birth: p.dateOfBirth,
      country: p.country,
      city: p.city,
      about_me: p.aboutMe,
      active: p.status === "active",
      photos: photoRows.map((photo) => ({ id: photo.id, thumb_url: `${row.cdn}${photo.thumbFilename}` })),
    };
  }

  return ({ route, staffOf }: StaffRouteKit) => {
    route("get", "/api/staff/profiles.php", "profiles.manage", async (req, res) => {
      const query = parseInput(res, SiteRunProfilesQuery, req.query);
      if (!query) return;
      const staff = staffOf(res);
      // A page along profiles_site_run_idx, and the page's photos in one read (a site runs thousands of profiles).
      const rows = await db
        .select({ profile: profiles, siteName: sites.name, cdn: sites.cdnPrefix })
        .from(profiles)
        .innerJoin(sites, eq(sites.id, profiles.siteId))
        .where(and(eq(profiles.fictional, true), onStaffSites(profiles.siteId, sitesOf(staff)), query.before === undefined ? undefined : lt(profiles.id, query.before)))
        .orderBy(desc(profiles.id))
        .limit(siteRunPageSize + 1);
      const page = rows.slice(0, siteRunPageSize);
      const photoRows = page.length
        ? await db
            .select()
            .from(photos)
            .where(and(inArray(photos.profileId, page.map((row) => row.profile.id)), eq(photos.status, "active")))
            .orderBy(asc(photos.position), asc(photos.id))
        : [];
      const list = page.map((row) => siteRunJson(row, photoRows.filter((photo) => photo.profileId === row.profile.id)));
      const siteRows = await db.select({ id: sites.id, name: sites.name }).from(sites).where(onStaffSites(sites.id, sitesOf(staff))).orderBy(asc(sites.id));
      const nextBefore = rows.length > siteRunPageSize ? (page[page.length - 1]?.profile.id ?? null) : null;
      json(res).json({ profiles: list, next_before: nextBefore, sites: siteRows } satisfies SiteRunProfilesResponse);
    });

    route("get", "/api/staff/profile.php", "profiles.manage", async (req, res) => {
      const query = parseInput(res, IdQuery, req.query);
      if (!query) return;
      const profile = await profileJson(staffOf(res), query.id);
      if (!profile) return sendError(res, "not_found");
      json(res).json(profile);
    });

    route("post", "/api/staff/profile.php", "profiles.manage", async (req, res) => {
      const body = parseInput(res, SiteRunProfileAction, req.body);
      if (!body) return;
      const staff = staffOf(res);
      const ip = res.locals.clientIp ?? null;
      if ("date_of_birth" in body && ageOn(body.date_of_birth) < 18) return sendError(res, "validation_failed", { fields: { date_of_birth: ["A profile's age is at least 18."] } });
      if (body.action === "create") {
        const [site] = await db.select({ id: sites.id }).from(sites).where(and(eq(sites.id, body.site_id), onStaffSites(sites.id, sitesOf(staff)))).limit(1);
        if (!site) return sendError(res, "validation_failed", { fields: { site_id: ["No site of yours has this id."] } });
        const id = await db.transaction(async (tx) => {
          const [user] = await tx
            .insert(users)
            .values({ siteId: site.id, email: `site-run-${randomBytes(8).toString("hex")}@profiles.invalid`, passwordHash: null, status: "active", emailConfirmedAt: new Date() })
            .returning({ id: users.id });
          const [profile] = await tx
            .insert(profiles)
            .values({ userId: user!.id, siteId: site.id, name: body.name, gender: body.gender, dateOfBirth: body.date_of_birth, country: body.country, city: body.city, aboutMe: body.about_me, fictional: true, status: "active" })
            .returning({ id: profiles.id });
          await recordAudit(tx, staff, ip, { action: "profile.create", targetType: "profile", targetId: profile!.id, siteId: site.id, changes: { name: { before: null, after: body.name } } });
          return profile!.id;
        });
        return void json(res).status(201).json(await profileJson(staff, id));
      }
      const current = await profileJson(staff, body.id);
      if (!current) return sendError(res, "not_found");
      if (body.action !== "delete_photo") await db.transaction(async (tx) => {
        if (body.action === "update") {
          await tx
            .update(profiles)
            .set({ name: body.name, gender: body.gender, dateOfBirth: body.date_of_birth, country: body.country, city: body.city, aboutMe: body.about_me })
            .where(eq(profiles.id, body.id));
          await recordAudit(tx, staff, ip, {
            action: "profile.update",
            targetType: "profile",
            targetId: body.id,
            siteId: current.site.id,
            changes: {
              name: { before: current.name, after: body.name },
              gender: { before: current.gender, after: body.gender },
              date_of_birth: { before: current.date_of_birth, after: body.date_of_birth },
              country: { before: current.country, after: body.country },
              city: { before: current.city, after: body.city },
              about_me: { before: current.about_me, after: body.about_me },
            },
          });
        } else if (body.action === "disable" || body.action === "enable") {
          await tx.update(profiles).set({ status: body.action === "enable" ? "active" : "disabled" }).where(eq(profiles.id, body.id));
          await recordAudit(tx, staff, ip, { action: `profile.${body.action}`, targetType: "profile", targetId: body.id, siteId: current.site.id, changes: { active: { before: current.active, after: body.action === "enable" } } });
        }
      });
      // Audited in the deletion's transaction, and only when this profile had the photo.
      if (body.action === "delete_photo") {
        const photoId = body.photo_id;
        const audit = (tx: Parameters<Parameters<Db["transaction"]>[0]>[0]) => recordAudit(tx, staff, ip, { action: "profile.delete_photo", targetType: "photo", targetId: photoId, siteId: current.site.id });
        if (!(await deletePhoto(db, storage, { profileId: body.id, paidUser: true }, photoId, audit))) return sendError(res, "not_found");
      }
      json(res).json(await profileJson(staff, body.id));
    });

    route("post", "/api/staff/profile-photo.php", "profiles.manage", async (req, res) => {
      const query = parseInput(res, IdQuery, req.query);
      if (!query) return;
      const staff = staffOf(res);
      const current = await profileJson(staff, query.id);
      if (!current) return sendError(res, "not_found");
      const upload = await readUpload(req, res);
      if ("error" in upload) {
        if (upload.error === "file_too_large") return sendError(res, "file_too_large", { params: { megabytes: photoMaxMegabytes } });
        return sendError(res, "validation_failed", { fields: { [photoUploadField]: ["Send one photo as multipart/form-data in the field photo"] } });
      }
      if (!upload.file || upload.file.size === 0) return sendError(res, "validation_failed", { fields: { [photoUploadField]: ["Choose a photo to upload"] } });
      const image = await processPhoto(upload.file.buffer);
      if (!image) return sendError(res, "unsupported_image");
      const outcome = await addPhoto(db, storage, { profileId: query.id, paidUser: true }, image, { reviewed: true });
      if ("code" in outcome) return sendError(res, outcome.code === "photo_limit_reached" ? "photo_limit_reached" : "premium_required", outcome.code === "photo_limit_reached" ? { params: { limit: outcome.limit } } : {});
      await recordAudit(db, staff, res.locals.clientIp ?? null, { action: "profile.add_photo", targetType: "photo", targetId: outcome.photo.id, siteId: current.site.id });
      json(res).status(201).json(await profileJson(staff, query.id));
    });
  };
}
