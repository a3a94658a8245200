/** The analytics page's shared shapes (docs/staff.md, Analytics): a table as its headings and rows of cell texts. */
export type AnalyticsTable = { id: string; title: string; headings: string[]; rows: string[][] };

/** Minor units as major units with two decimals (every currency the product sells in has cents). */
export const major = (minor: number) => (minor / 100).toFixed(2);
