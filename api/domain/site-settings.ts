import { siteSettingNames, type SiteSettingName, type SiteSettingsRead } from "#contract/site-settings";
import type { SiteSettingsInput } from "#contract/staff-sites";
import type { sites } from "../db/schema";
import { normaliseDomain, type Site } from "./sites";

/*
 * A site's settings (contract/site-settings.ts) to and from its `sites` row: each setting is the column named as the
 * setting in camelCase (message_credits: messageCredits). The types below make a setting without its column, or a
 * column of another type, fail to compile.
 */

type Camel<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;
const camel = (name: string) => name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

type ReadColumns = { [K in SiteSettingName as Camel<K>]: SiteSettingsRead[K] };
type WriteColumns = { [K in SiteSettingName as Camel<K>]: SiteSettingsInput[K] };

// Compile-time checks: every setting has its column, of a type the setting reads as and can write.
const rowHoldsEverySetting = (row: Site): ReadColumns => row;
const everySettingIsAColumn = (columns: WriteColumns): Partial<typeof sites.$inferInsert> => columns;
void rowHoldsEverySetting;
void everySettingIsAColumn;

/** A stored site's settings, keyed as the contract, the console's form and the audit log name them. */
export function settingsOfRow(row: Site): SiteSettingsRead {
  const columns: Record<string, unknown> = row;
  return Object.fromEntries(siteSettingNames.map((name) => [name, columns[camel(name)]])) as SiteSettingsRead;
}

/** Some settings of a row (members' settings take the public ones). */
export function pickSettings<Name extends SiteSettingName>(row: Site, names: readonly Name[]): Pick<SiteSettingsRead, Name> {
  const columns: Record<string, unknown> = row;
  return Object.fromEntries(names.map((name) => [name, columns[camel(name)]])) as Pick<SiteSettingsRead, Name>;
}

/** The columns of a site's settings as the console saves them (the domain as sites are looked up by it). */
export function columnsOfSettings(input: SiteSettingsInput): WriteColumns {
  const columns = Object.fromEntries(siteSettingNames.map((name) => [camel(name), input[name]])) as WriteColumns;
  return { ...columns, domain: normaliseDomain(input.domain) };
}
