/** The staff pages' texts are English templates with {{name}} slots (locales/en/staff.json), filled on either side. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (slot, name: string) => (name in values ? String(values[name]) : slot));
}

/** A time as staff read it: UTC, to the minute. */
export function utcMinute(iso: string): string {
  return `${iso.replace("T", " ").slice(0, 16)} UTC`;
}

export const staffField = "mt-1 block w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-sm";
export const staffCard = "rounded-xl bg-white p-4 ring-1 ring-gray-200";
