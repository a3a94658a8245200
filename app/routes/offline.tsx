import type { LoaderFunctionArgs } from "@remix-run/node";
import { fixedT } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { getSettings } from "~/utils/session.server";
import { themeColour } from "./manifest[.]webmanifest";

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The offline page the service worker (public/sw-push.js) caches at install and shows for a navigation without
 * network. Self-contained HTML (no script, inline style): nothing else has to be cached for it.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const locale = urlLocale(request);
  const t = fixedT(locale, "export");
  const settings = await getSettings(request, context);
  const html = `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(t("offline.title"))} | ${escape(settings.name)}</title>
<style>body{font-family:system-ui,sans-serif;margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;text-align:center;background:#f9fafb;color:#111827}main{padding:1rem;max-width:30rem}h1{color:${themeColour}}a{display:inline-block;margin-top:1.5rem;padding:.5rem 1.5rem;border-radius:9999px;background:${themeColour};color:#fff;text-decoration:none;font-weight:600}</style></head>
<body><main data-testid="offline-page"><h1>${escape(t("offline.title"))}</h1><p>${escape(t("offline.text"))}</p><a href="">${escape(t("offline.retry"))}</a></main></body></html>`;
  return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-cache" } });
}
