import { randomBytes } from "node:crypto";
import { rename, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * Writes a file whole or not at all: to a hidden temporary name in the same directory, then renamed into place.
 * Whoever reads the directory (an operator, a test waiting for a mail or a code) never sees it half written.
 */
export async function writeFileAtomically(file: string, data: string | Uint8Array): Promise<void> {
  // A name no reader looks for: not the file's, and hidden.
  const temporary = path.join(path.dirname(file), `.writing-${randomBytes(6).toString("hex")}`);
  await writeFile(temporary, data);
  await rename(temporary, file);
}
