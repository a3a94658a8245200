/** docs/product.md §2, §9: the unread badge caps at 99+; nothing shows at 0. */
export function countBadgeText(count: number): string | null {
  if (!Number.isFinite(count) || count <= 0) return null;
  return count >= 100 ? "99+" : String(Math.floor(count));
}

/** docs/product.md §2: the credits badge shows at 10 credits or fewer, warning above 0 and danger at 0. */
export function creditsBadgeTone(credits: number): "warning" | "danger" | null {
  if (credits > 10) return null;
  return credits > 0 ? "warning" : "danger";
}
