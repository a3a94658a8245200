import { index, type RouteConfig } from "@remix-run/route-config";

export default [index("routes/cards.tsx")] satisfies RouteConfig;
