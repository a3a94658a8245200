import type { ActionFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import {  DismissRequest } from "#contract/account";
import { apiFor } from "~/utils/api.server";
import { safeRedirectPath } from "~/utils/paths";
import { requireUser } from "~/utils/session.server";
import { endpoints } from "#contract/endpoints/index";

/** Hides a banner for good (docs/product.md §4 Dismissals): a plain form back to the page it came from; a fetcher with JavaScript. */
export async function action({ request, context }: ActionFunctionArgs) {
  await requireUser(request, context);
  const form = await request.formData();
  const body = DismissRequest.safeParse({ key: form.get("key") });
  if (!body.success) throw data(null, { status: 400 });
  const result = await apiFor(request, context).call(endpoints.dismiss, { body: body.data });
  if (!result.ok) throw data(null, { status: result.status });
  return redirect(safeRedirectPath(form.get("redirectTo"), "/members"));
}

export function loader() {
  return redirect("/members");
}
