import type { Request, Response } from "express";
import multer from "multer";
import { photoMaxBytes } from "#contract/photos";

export type Upload = { file: Express.Multer.File | undefined } | { error: "file_too_large" | "malformed" };

/**
 * A reader of one photo-sized file in the multipart field `field` (profile photos, image messages), as a
 * promise: the file, or which of the client's mistakes it was.
 */
export function photoUploadReader(field: string): (req: Request, res: Response) => Promise<Upload> {
  const parse = multer({ storage: multer.memoryStorage(), limits: { fileSize: photoMaxBytes, files: 1, fields: 10, parts: 12, fieldSize: 10_000 } }).single(field);
  return (req, res) =>
    new Promise((resolve) => {
      parse(req, res, (error: unknown) => {
        if (!error) return resolve({ file: req.file });
        if (error instanceof multer.MulterError && error.code === "LIMIT_FILE_SIZE") return resolve({ error: "file_too_large" });
        // Other multer limits and busboy's parse errors (cut-off body, bad boundary): a malformed request.
        resolve({ error: "malformed" });
      });
    });
}
