import geoip from "geoip-country";

/** ISO country of an IP address from the database shipped in geoip-country; null for private or unknown addresses. */
export function countryOfIp(ip: string | undefined): string | null {
  if (!ip) return null;
  const address = ip.startsWith("::ffff:") ? ip.slice(7) : ip;
  return geoip.lookup(address)?.country ?? null;
}
