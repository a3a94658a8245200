import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const folders = ["app", "api", "server", "contract", "tests", "bench", "scripts", "docs"];

/** A repository path in a comment or a doc: a top folder, then a file with one of the code or doc extensions. */
const repoPath = /(?<![\w./-])((?:app|api|server|contract|tests|bench|scripts|docs|locales|public)\/[\w.$()[\]/-]*?\.(?:tsx?|mjs|md|sql|json|css))(?![\w/])/g;

/** What a file says in comments (code) or in its text (docs): only there do paths name files for a reader. */
function commentText(file: string, text: string): string {
  if (file.endsWith(".md")) return text;
  const marker = file.endsWith(".sql") ? /--(.*)$/ : /(?:\/\/|\/\*|^\s*\*)(.*)$/;
  return text
    .split("\n")
    .map((line) => marker.exec(line)?.[1] ?? "")
    .join("\n");
}

function sourceFiles(): string[] {
  return folders.flatMap((folder) =>
    (readdirSync(path.join(root, folder), { recursive: true }) as string[])
      .filter((name) => /\.(tsx?|mjs|sql|css|md)$/.test(name) && !name.split(path.sep).includes("node_modules"))
      .map((name) => path.join(folder, name)),
  );
}

/** Comments and docs point only at files in the repository: a file renamed or removed without its mentions shows here. */
describe("paths named in comments and docs", () => {
  it("name files that exist", () => {
    const missing: string[] = [];
    for (const file of [...sourceFiles(), "README.md"]) {
      const text = commentText(file, readFileSync(path.join(root, file), "utf8"));
      for (const [, named] of text.matchAll(repoPath)) {
        // bench/results holds a run's output, written by npm run bench; not in the repository.
        if (named!.startsWith("bench/results/")) continue;
        if (!existsSync(path.join(root, named!))) missing.push(`${file}: ${named}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("name no tracker entry: what and why, or a docs/ page, instead of an issue number", () => {
    // Spelled in parts, so that this file does not match itself.
    const trackerNumber = new RegExp(["\\b[Ii]ssues?", "#?[0-9]+\\b"].join(" ?"));
    const joined = (...words: string[]) => words.join(" ");
    expect([joined("see issue", "17"), joined("Issues", "4 and 5"), joined("issue", "#3")].map((line) => trackerNumber.test(line))).toEqual([true, true, true]);
    expect(["the issuer", "zod's issues", "React #421"].map((line) => trackerNumber.test(line))).toEqual([false, false, false]);
    const found: string[] = [];
    for (const file of [...sourceFiles(), "README.md"]) {
      readFileSync(path.join(root, file), "utf8")
        .split("\n")
        .forEach((line, index) => {
          if (trackerNumber.test(line)) found.push(`${file}:${index + 1}: ${line.trim().slice(0, 120)}`);
        });
    }
    expect(found).toEqual([]);
  });

  it("find a missing path in a comment, and leave code alone", () => {
    // Put together here, so that this file's own text names no missing file.
    const absent = ["tests", "unit", "no-such-file.test.ts"].join("/");
    const code = [`const a = 1; // see ${absent} and [the client](api/db/client.ts).`, ` * a doc comment's line: ${absent}`, `const b = "${absent}";`];
    const text = commentText("x.ts", code.join("\n"));
    const named = [...text.matchAll(repoPath)].map((match) => match[1]!);
    expect(named).toEqual([absent, "api/db/client.ts", absent]);
    expect(named.filter((file) => !existsSync(path.join(root, file)))).toEqual([absent, absent]);
  });
});
