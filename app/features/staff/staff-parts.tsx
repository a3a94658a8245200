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
