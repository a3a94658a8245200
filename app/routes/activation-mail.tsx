import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { apiFor } from "~/utils/api.server";
import { safeRedirectPath } from "~/utils/paths";
import { requireUser } from "~/utils/session.server";
import { endpoints } from "#contract/endpoints/index";

/** "Send the e-mail again": back to the page it came from, with ?activation=sent or =throttled for the notice. */
export async function action({ request, context }: ActionFunctionArgs) {
  await requireUser(request, context);
  const form = await request.formData();
  const back = new URL(safeRedirectPath(form.get("redirectTo"), "/members"), "http://rendezvous.invalid");
  const result = await apiFor(request, context).call(endpoints.sendActivationMail);
  back.searchParams.set("activation", result.ok ? "sent" : result.error.error === "too_many_requests" ? "throttled" : "failed");
  return redirect(back.pathname + back.search);
}

export function loader() {
  return redirect("/members");
}
