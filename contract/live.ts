/*
 * Constants of the live state (docs/product.md §9) that the browser needs: kept free of zod so that importing
 * them does not bring the schemas into a page's JavaScript (contract/events.ts re-exports them).
 */
export const typingSendEverySeconds = 3;
export const typingShowSeconds = 5;
export const heartbeatSeconds = 15;
