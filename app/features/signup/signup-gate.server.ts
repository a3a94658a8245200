import { hasTrafficSource } from "#contract/account";
import type { Settings } from "#contract/settings";
import { keptTracking } from "../landers/tracking.server";

export type SignupGate = "open" | "invitation" | "closed" | "closed_trafficsource";

/** docs/product.md §5: signups only if signups is all, or with_trafficsource and a traffic source exists; `other` is by invitation. */
export function signupGate(settings: Pick<Settings, "signups">, request: Request): SignupGate {
  if (settings.signups === "all") return "open";
  if (settings.signups === "other") return "invitation";
  const url = new URL(request.url);
  const fromUrl = { network: url.searchParams.get("network") ?? undefined, ref: url.searchParams.get("ref") ?? undefined };
  return hasTrafficSource(keptTracking(request)) || hasTrafficSource(fromUrl) ? "open" : "closed_trafficsource";
}
