import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiFor } from "~/utils/api.server";
import { endpoints } from "#contract/endpoints/index";

/**
 * /staff/events (docs/staff.md): the staff frame's live queue sizes, the api's stream (/api/staff/events.php) passed
 * on. Under /staff, where the browser sends the staff cookie (never to /api). A lapsed session answers 403: the
 * frame's EventSource then stops, and the next page load goes to the login.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const result = await apiFor(request, context).stream(endpoints.staffEvents);
  if (!result.ok) return new Response(null, { status: result.status, headers: { "Cache-Control": "no-store" } });
  return new Response(result.data.body, {
    status: 200,
    headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "private, no-store", "X-Accel-Buffering": "no" },
  });
}
