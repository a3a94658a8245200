import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiFor } from "~/utils/api.server";
import { requireStaff } from "~/features/staff/staff-api.server";

/**
 * /staff/inbox/media/{message}: an image a member sent (or a profile's photo answer) for the operator's thread, passed
 * on from the api (/api/staff/inbox-image.php checks the conversation is of the caller's sites). ?size=thumb: the small one.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const message = params.message ?? "";
  const size = new URL(request.url).searchParams.get("size") === "thumb" ? "thumb" : "full";
  if (!/^\d{1,9}$/.test(message)) return new Response(null, { status: 404, headers: { "Cache-Control": "no-store" } });
  const result = await apiFor(request, context).file("/api/staff/inbox-image.php", { message, size });
  if (!result.ok) return new Response(null, { status: result.status, headers: { "Cache-Control": "no-store" } });
  return new Response(result.data.body, { headers: { "Content-Type": "image/jpeg", "Cache-Control": "private, no-store" } });
}
