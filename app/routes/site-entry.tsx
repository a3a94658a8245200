import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { entryWarningSkippedCookie } from "~/features/entry-warning/entry-warning.server";
import { safeRedirectPath } from "~/utils/paths";

/** The site-entry warning's button posts here: with JavaScript as a fetcher, without it as a form that comes back to the page. */
export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const back = safeRedirectPath(form.get("redirectTo"), "/");
  return redirect(back, { headers: { "Set-Cookie": entryWarningSkippedCookie() } });
}

export function loader() {
  return redirect("/");
}
