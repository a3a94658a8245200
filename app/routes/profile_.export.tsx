import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { DataExportStatus } from "#contract/data-export";
import { apiFor } from "~/utils/api.server";
import { requireUser } from "~/utils/session.server";

/** The member asks for their data; back to /profile, which says what happened (works without JavaScript). */
export async function action({ request, context }: ActionFunctionArgs) {
  await requireUser(request, context);
  const result = await apiFor(request, context).post("/api/dataexport.php", DataExportStatus, {});
  const outcome = result.ok ? "requested" : result.status === 429 ? "limit" : "gone";
  return redirect(`/profile?export=${outcome}`);
}

/**
 * The link in the mail (?token=): the member's zip, as an attachment, with their session only (a visitor logs in
 * first and comes back; another member's or an expired token goes to /profile with a notice).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  const token = new URL(request.url).searchParams.get("token");
  const profile = "/profile";
  if (!token || !/^[\w-]{20,64}$/.test(token)) throw redirect(profile);
  const result = await apiFor(request, context).file("/api/dataexport-file.php", { token });
  if (!result.ok) throw redirect(`${profile}?export=gone`);
  const upstream = result.data;
  return new Response(upstream.body, {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": upstream.headers.get("Content-Disposition") ?? 'attachment; filename="data.zip"',
      "Cache-Control": "private, no-store",
    },
  });
}
