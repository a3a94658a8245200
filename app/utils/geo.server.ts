import geoip from "geoip-country";

/** The visitor's country from the IP database shipped in geoip-country; null for private or unknown addresses. */
export function countryOfIp(ip: string): string | null {
  const address = ip.startsWith("::ffff:") ? ip.slice(7) : ip;
  return address ? (geoip.lookup(address)?.country ?? null) : null;
}
