/** The search form's filters, as the search URL names them (docs/product.md §3 Search state). */
export const searchFilters = ["gender", "country", "region", "min_age", "max_age"] as const;
export type SearchFilter = (typeof searchFilters)[number];

/**
 * docs/product.md §3 settings search_fields: the filters the site's search form offers (and the only ones a search URL
 * may set). countryregion is the region filter, which needs the country filter (a country's regions); a site that
 * lists no fields offers all.
 */
export function offeredFilters(searchFields: readonly string[]): SearchFilter[] {
  if (searchFields.length === 0) return [...searchFilters];
  return searchFilters.filter((key) => (key === "region" ? searchFields.includes("countryregion") && searchFields.includes("country") : searchFields.includes(key)));
}
