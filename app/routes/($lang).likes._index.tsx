import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { urlLocale } from "~/locale.server";
import { localizePath } from "~/paths";

/** /likes opens its first tab, the likes received (docs/product.md §2 /likes, /likes/{type}). */
export function loader({ request }: LoaderFunctionArgs) {
  throw redirect(localizePath(urlLocale(request), "/likes/received"));
}
