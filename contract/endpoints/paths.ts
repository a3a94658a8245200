/*
 * The paths of the endpoints the browser calls itself (the live stream, beacons, typing, the like modal's poll, the
 * push subscription, the profile form's place lookups, a GIF's file), as plain constants: the endpoint table (contract/endpoints/*.ts) takes these entries' paths from
 * here, and browser code imports only this, so no schema reaches a page's JavaScript.
 */
export const browserPaths = {
  events: "/api/events.php",
  typing: "/api/typing.php",
  pageHidden: "/api/page-hidden.php",
  pageVisible: "/api/page-visible.php",
  autoLike: "/api/auto-like.php",
  user: "/api/user.php",
  geocode: "/api/geocode.php",
  regions: "/api/regions.php",
  gif: "/api/gif.php",
} as const;
