import { redirect } from "@remix-run/node";

/** /likes opens its first tab, the likes received (docs/product.md §2 /likes, /likes/{type}). */
export function loader() {
  throw redirect("/likes/received");
}
