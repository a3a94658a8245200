import path from "node:path";
import { Router, type Response } from "express";
import type { Db } from "../db/client";
import { PhotoQuery, PhotoUpdate, photoMaxMegabytes, photoUploadField } from "#contract/photos";
import { addPhoto, deletePhoto, listOwnPhotos, makeMainPhoto, processPhoto, uploadRefusal, type LimitRefusal } from "../domain/photos";
import { localDiskStorage, type FileStorage } from "../services/storage";
import { requireMember, memberOf } from "./context";
import { photoUploadReader } from "./upload";
import { handle, parseInput, sendError } from "./respond";

const readUpload = photoUploadReader(photoUploadField);


function refuseLimit(res: Response, refusal: LimitRefusal): void {
  if (refusal.code === "photo_limit_reached") return sendError(res, "photo_limit_reached", { params: { limit: refusal.limit } });
  sendError(res, "premium_required");
}

/** The member's own photos: list, upload, make main, delete. */
export function photoRoutes(db: Db, options: { dataDir: string; storage?: FileStorage }): Router {
  const storage = options.storage ?? localDiskStorage(path.resolve(options.dataDir, "uploads"));
  const router = Router();
  const noStore = (res: Response) => res.set("Cache-Control", "private, no-store");

  router.get(
    "/api/photos.php",
    requireMember,
    handle(async (_req, res) => {
      noStore(res).json(await listOwnPhotos(db, memberOf(res)));
    }),
  );

  router.post(
    "/api/photos.php",
    requireMember,
    handle(async (req, res) => {
      const upload = await readUpload(req, res);
      if ("error" in upload) {
        if (upload.error === "file_too_large") return sendError(res, "file_too_large", { params: { megabytes: photoMaxMegabytes } });
        return sendError(res, "validation_failed", { fields: { [photoUploadField]: ["Send one photo as multipart/form-data in the field photo"] } });
      }
      if (!upload.file || upload.file.size === 0) return sendError(res, "validation_failed", { fields: { [photoUploadField]: ["Choose a photo to upload"] } });
      const owner = memberOf(res);
      // Cheap check first, so a member at the limit is not made to wait for the image work; addPhoto checks again under a lock.
      const early = await uploadRefusal(db, owner);
      if (early) return refuseLimit(res, early);
      const image = await processPhoto(upload.file.buffer);
      if (!image) return sendError(res, "unsupported_image");
      const outcome = await addPhoto(db, storage, owner, image);
      if ("code" in outcome) return refuseLimit(res, outcome);
      noStore(res)
        .status(201)
        .json({ ...outcome.list, photo: outcome.photo });
    }),
  );

  router.put(
    "/api/photo.php",
    requireMember,
    handle(async (req, res) => {
      const body = parseInput(res, PhotoUpdate, req.body);
      if (!body) return;
      const outcome = await makeMainPhoto(db, memberOf(res), body.id);
      if (outcome === "not_found") return sendError(res, "not_found");
      if (outcome === "not_active") return sendError(res, "validation_failed", { fields: { id: ["Only an active photo can be the main photo"] } });
      noStore(res).json(outcome);
    }),
  );

  router.delete(
    "/api/photo.php",
    requireMember,
    handle(async (req, res) => {
      const query = parseInput(res, PhotoQuery, req.query);
      if (!query) return;
      const owner = memberOf(res);
      if (!(await deletePhoto(db, storage, owner, query.id))) return sendError(res, "not_found");
      noStore(res).json(await listOwnPhotos(db, owner));
    }),
  );

  return router;
}
