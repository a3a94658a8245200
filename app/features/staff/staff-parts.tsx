import type { ReactNode } from "react";
import { moderationReasons } from "#contract/moderation-reasons";
import { staffCard, staffField } from "./staff-format";

/** A titled box of a staff page (a section of a member's page, one action of a report). */
export function StaffCard({ title, testId, children }: { title: string; testId?: string; children: ReactNode }) {
  return (
    <section className={staffCard} data-testid={testId}>
      <h2 className="mb-2 font-semibold text-gray-900">{title}</h2>
      {children}
    </section>
  );
}

/** The reason of a moderation decision (field "reason"), from the list members are told in their language. */
export function ReasonSelect({ id, label, reasons }: { id: string; label: string; reasons: Record<(typeof moderationReasons)[number], string> }) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-gray-700">
        {label}
      </label>
      <select id={id} name="reason" defaultValue="terms_violation" className={staffField}>
        {moderationReasons.map((reason) => (
          <option key={reason} value={reason}>
            {reasons[reason]}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A staff list as a table: its column headings, and its rows (each a `<tr>`). */
export function StaffTable({ testId, headings, className = "mt-6", children }: { testId: string; headings: string[]; className?: string; children: ReactNode }) {
  return (
    // Focusable: a table wider than the screen scrolls by keyboard too.
    <div className={`${className} overflow-x-auto rounded-xl bg-white ring-1 ring-gray-200`} tabIndex={0}>
      <table className="min-w-full text-left text-sm" data-testid={testId}>
        <thead className="border-b border-gray-200 text-gray-700">
          <tr>
            {headings.map((heading) => (
              <th key={heading} scope="col" className="px-4 py-3 font-semibold">
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-gray-100 text-gray-900">{children}</tbody>
      </table>
    </div>
  );
}

/** A labelled form field of a staff page, with its hint and the api's refusal of it (linked to the input for screen readers). */
export function StaffField({ id, label, hint, error, children }: { id: string; label: string; hint?: string; error?: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-gray-700">
        {label}
      </label>
      {children}
      {hint ? <p className="mt-1 text-xs text-gray-600">{hint}</p> : null}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-xs font-medium text-red-700" data-testid="staff-field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
