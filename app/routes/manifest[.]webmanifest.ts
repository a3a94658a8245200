import type { LoaderFunctionArgs } from "@remix-run/node";
import { getSettings } from "~/utils/session.server";

/**
 * The theme's primary colour (app/tailwind.css, docs/product.md §9 "Primary colour pink"); the icons carry it (scripts/make-icons.mjs).
 * 5.53:1 with white: the offline page uses it for its heading and as a button's background.
 */
export const themeColour = "#c81d5f";

/** docs/product.md §1 installable app mode: each site's web app manifest, named after the site, opening on the members. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const settings = await getSettings(request, context);
  const manifest = {
    id: "/members",
    name: settings.name,
    short_name: settings.name.length > 12 ? settings.name.slice(0, 12).trim() : settings.name,
    start_url: "/members",
    scope: "/",
    display: "standalone",
    background_color: "#ffffff",
    theme_color: themeColour,
    icons: [
      { src: "/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
      { src: "/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
      { src: "/icon-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
  };
  return new Response(JSON.stringify(manifest), {
    headers: { "Content-Type": "application/manifest+json; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
