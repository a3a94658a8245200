import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { randomBytes } from "node:crypto";

/**
 * Where uploaded files live. Keys are relative paths ("photos/abc.jpg") that pages put behind the
 * site's cdn_prefix. The local disk under DATA_DIR/uploads is the default (api/app.ts serves it at
 * /uploads); an S3-like store implements the same two calls.
 */
export interface FileStorage {
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** Removes the file; a key that does not exist is not an error. */
  delete(key: string): Promise<void>;
}

const keyPattern = /^[a-z0-9_-]+(?:\/[A-Za-z0-9_-]+)*\.[a-z0-9]+$/;

/** Whether a key is one this storage would write (no "..", no absolute path, no odd characters). */
export function isStorageKey(key: string): boolean {
  return keyPattern.test(key);
}

/** A new unguessable key in `folder`: free members must not reach photos they are not shown by guessing names. */
export function randomKey(folder: string, extension: string): string {
  return `${folder}/${randomBytes(18).toString("base64url")}.${extension}`;
}

export function localDiskStorage(root: string): FileStorage {
  const base = path.resolve(root);
  const fileOf = (key: string): string => {
    const file = path.resolve(base, key);
    if (!isStorageKey(key) || !file.startsWith(base + path.sep)) throw new Error(`invalid storage key ${JSON.stringify(key)}`);
    return file;
  };
  return {
    async put(key, body) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      // Written beside and renamed: the static file server never hands out half a file.
      const temporary = `${file}.${randomBytes(6).toString("hex")}.tmp`;
      await writeFile(temporary, body, { flag: "wx" });
      await rename(temporary, file);
    },
    async delete(key) {
      await rm(fileOf(key), { force: true });
    },
  };
}
