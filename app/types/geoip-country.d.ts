declare module "geoip-country" {
  const geoip: { lookup(ip: string): { range: [number, number]; country: string } | null };
  export default geoip;
}
