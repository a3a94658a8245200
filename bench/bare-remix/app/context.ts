/** What bench/bare-remix/server.ts hands the loader: one query for a page of members. */
export type BareMember = { id: number; name: string; age: number; city: string; about: string };

export type BareLoadContext = { members: (limit: number, offset: number) => Promise<BareMember[]> };
