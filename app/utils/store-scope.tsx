/**
 * One jotai store per server render, so nothing is shared between requests (parts hydrate atoms while rendering).
 * In the browser, vite.config.ts puts store-scope.browser.tsx in its place: the page uses jotai's default store, and
 * jotai loads only with the parts that use atoms (the live state, the offers), not with every page.
 */
export { Provider as StoreScope } from "jotai";
