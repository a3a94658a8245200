/** Where bench/bare-remix is built: under node_modules/.cache, where neither git, ESLint nor Tailwind look. */
import { fileURLToPath } from "node:url";

export const bareRemixRoot = fileURLToPath(new URL(".", import.meta.url));
export const bareRemixBuild = fileURLToPath(new URL("../../node_modules/.cache/bench-bare-remix", import.meta.url));
