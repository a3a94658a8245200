import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { LogoutResponse } from "#contract/user";
import { apiFor } from "~/api.server";
import { urlLocale } from "~/locale.server";
import { localizePath } from "~/paths";

async function logout({ request, context }: { request: Request; context: ActionFunctionArgs["context"] }) {
  // The api deletes the session and answers the Set-Cookie that clears it; it is passed on as is.
  await apiFor(request, context).get("/api/logout.php", LogoutResponse);
  return redirect(localizePath(urlLocale(request), "/"));
}

export const action = (args: ActionFunctionArgs) => logout(args);
export const loader = (args: LoaderFunctionArgs) => logout(args);
