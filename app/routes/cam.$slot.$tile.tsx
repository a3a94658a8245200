import type { LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { camSlots, type CamSlot } from "#contract/cam";
import { apiFor } from "~/utils/api.server";
import { keptTracking } from "~/features/landers/tracking.server";
import { endpoints } from "#contract/endpoints/index";

/**
 * docs/product.md §1 live-cam tiles: a tile's link. The api counts the click (per day and site) and answers the
 * partner's address with the tracking values; the member goes on there. A site without tiles answers 404.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const slot = camSlots.find((s) => s === params.slot) as CamSlot | undefined;
  if (!slot || !/^\d{1,2}$/.test(params.tile ?? "")) throw data(null, { status: 404 });
  const tracking = keptTracking(request);
  const result = await apiFor(request, context).call(endpoints.camClick, { body: { slot, ...(tracking ? { tracking } : {}) } });
  if (!result.ok) throw data(null, { status: result.status === 429 ? 429 : 404 });
  // The site's partner address, https only (the console refuses anything else).
  if (!/^https:\/\//.test(result.data.url)) throw data(null, { status: 404 });
  return redirect(result.data.url, { headers: { "Cache-Control": "private, no-store" } });
}
