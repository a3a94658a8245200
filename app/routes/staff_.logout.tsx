import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { OkResponse } from "#contract/account";
import { apiFor } from "~/utils/api.server";

/** Ends the staff session (the api clears the cookie) and goes back to the staff login. A POST only. */
export async function action({ request, context }: ActionFunctionArgs) {
  await apiFor(request, context).post("/api/staff/logout.php", OkResponse, {});
  throw redirect("/staff/login");
}

export async function loader() {
  throw redirect("/staff");
}
