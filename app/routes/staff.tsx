import { may } from "#contract/endpoints/may";
import type { StaffAction } from "#contract/staff-permissions";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { Form, NavLink, Outlet, useLoaderData, useLocation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { queueCountText } from "#contract/queue-count";
import { inboxEventName } from "~/features/staff/inbox-live";
import { apiFor } from "~/utils/api.server";
import { requireStaff } from "~/features/staff/staff-api.server";
import { staffTexts } from "~/features/staff/staff-texts.server";
import { Button } from "~/components/ui/button";
import { ChevronDownIcon } from "~/components/ui/icons";
import { GeneralErrorBoundary } from "~/components/layout/error-boundary";
import { endpoints } from "#contract/endpoints/index";

export const handle = { layout: "staff", hideEntryWarning: true };

/** The frame of every staff page: who is logged in, the pages their role may open, and log out. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const staff = await requireStaff(request, context);
  const texts = staffTexts();
  const queues = await apiFor(request, context).call(endpoints.staffQueues);
  // `title`: the console's name, the title of a staff page's error (app/utils/page-title.ts pageMeta).
  return { title: texts.brand, staff, queues: queues.ok ? queues.data : { photos: 0, reports: 0 }, texts: { brand: texts.brand, nav: texts.nav, role: texts.roles[staff.role], errors: texts.errors } };
}

const navLink = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 text-sm font-medium ${isActive ? "bg-gray-900 text-white" : "text-gray-700 hover:bg-gray-100 hover:text-gray-900"}`;

export default function StaffFrame() {
  const { staff, queues: loaded, texts } = useLoaderData<typeof loader>();
  const queues = useLiveQueues(loaded);
  return (
    <div className="min-h-screen bg-gray-50">
      <header className="border-b border-gray-200 bg-white">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
          <p className="font-semibold text-gray-900">{texts.brand}</p>
          <nav aria-label={texts.nav.label} className="flex flex-wrap gap-1">
            <NavLink to="/staff" end className={navLink}>
              {texts.nav.dashboard}
            </NavLink>
            {may(staff.role, "photos.moderate") ? (
              <NavLink to="/staff/photos" className={navLink}>
                {texts.nav.photos}
                <QueueBadge count={queues.photos} label={texts.nav.queue} />
              </NavLink>
            ) : null}
            {may(staff.role, "messages.moderate") ? (
              <NavLink to="/staff/held-messages" className={navLink}>
                {texts.nav.heldMessages}
              </NavLink>
            ) : null}
            {may(staff.role, "inbox.answer") ? (
              <NavLink to="/staff/inbox" className={navLink}>
                {texts.nav.inbox}
              </NavLink>
            ) : null}
            {!may(staff.role, "reports.handle") ? null : (
              <>
                <NavLink to="/staff/reports" className={navLink}>
                  {texts.nav.reports}
                  <QueueBadge count={queues.reports} label={texts.nav.queue} />
                </NavLink>
                <NavLink to="/staff/members" className={navLink}>
                  {texts.nav.members}
                </NavLink>
              </>
            )}
            {adminLinks.some(([, , action]) => may(staff.role, action)) ? (
              <AdminMenu label={texts.nav.admin} links={adminLinks.filter(([, , action]) => may(staff.role, action)).map(([to, key]) => ({ to, text: texts.nav[key] }))} />
            ) : null}
          </nav>
          <div className="ml-auto flex items-center gap-3 text-sm text-gray-700">
            <span data-testid="staff-who">{texts.nav.signedInAs.replace("{{name}}", staff.name).replace("{{role}}", texts.role)}</span>
            <NavLink to="/staff/password" className={navLink}>
              {texts.nav.password}
            </NavLink>
            <Form method="post" action="/staff/logout">
              <Button variant="neutral" size="sm">
                {texts.nav.logout}
              </Button>
            </Form>
          </div>
        </div>
      </header>
      <main id="main" className="mx-auto max-w-6xl px-4 py-8">
        <Outlet />
      </main>
    </div>
  );
}

/**
 * The queue sizes, live: the loader's, then each `queues` event of /staff/events (app/routes/staff.events.ts) while
 * the page is open. Without JavaScript the sizes are those of the page load.
 */
function useLiveQueues(loaded: Queues): Queues {
  // Whichever is newer: the sizes the page loaded with (fresh after every navigation and form), or the last event
  // since then (an event remembers the load it followed).
  const base = useRef(loaded);
  useEffect(() => {
    base.current = loaded;
  }, [loaded]);
  const [live, setLive] = useState<{ queues: Queues; base: Queues } | null>(null);
  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    const source = new EventSource("/staff/events");
    source.addEventListener("queues", (event) => {
      try {
        const next = JSON.parse((event as MessageEvent<string>).data) as Queues;
        if (typeof next.photos === "number" && typeof next.reports === "number") setLive({ queues: next, base: base.current });
      } catch {
        // A malformed event changes nothing; the next one will do.
      }
    });
    // The inbox's state, for the inbox pages (app/features/staff/inbox-live.ts): they reload when it changes.
    source.addEventListener("inbox", (event) => window.dispatchEvent(new CustomEvent(inboxEventName, { detail: (event as MessageEvent<string>).data })));
    // Too many of this staff member's tabs stream at once: this older one stops (its sizes update with each page load).
    source.addEventListener("end", () => source.close());
    return () => source.close();
  }, []);
  return live && live.base === loaded ? live.queues : loaded;
}

type Queues = { photos: number; reports: number };

/**
 * The admin's pages, in one menu so the navigation stays one row at 1280 px (docs/staff.md), each with the action it
 * needs (contract/staff-permissions.ts): the menu shows the pages the role may open.
 */
const adminLinks = [
  ["/staff/accounts", "accounts", "staff.manage"],
  ["/staff/analytics", "analytics", "analytics.read"],
  ["/staff/operators", "operators", "operators.read"],
  ["/staff/sites", "sites", "catalogue.manage"],
  ["/staff/packages", "packages", "catalogue.manage"],
  ["/staff/discount-codes", "discountCodes", "catalogue.manage"],
  ["/staff/invitations", "invitations", "catalogue.manage"],
  ["/staff/profiles", "profiles", "profiles.manage"],
  ["/staff/audit", "audit", "audit.read"],
] as const satisfies readonly (readonly [string, string, StaffAction])[];

/**
 * A <details> menu: works without JavaScript; with it, it closes after a navigation (remounted per location). Its
 * button is marked while one of its pages is open.
 */
function AdminMenu({ label, links }: { label: string; links: { to: string; text: string }[] }) {
  const location = useLocation();
  const current = links.some((link) => location.pathname === link.to || location.pathname.startsWith(`${link.to}/`));
  return (
    <details key={location.key} className="relative" data-testid="staff-admin-menu">
      <summary className={`flex cursor-pointer items-center gap-1 ${navLink({ isActive: current })}`}>
        {label}
        <ChevronDownIcon className="h-4 w-4" />
      </summary>
      <ul className="absolute left-0 z-30 mt-1 w-56 rounded-md border border-gray-200 bg-white py-1 shadow-lg">
        {links.map((link) => (
          <li key={link.to}>
            <NavLink to={link.to} className="menu-item">
              {link.text}
            </NavLink>
          </li>
        ))}
      </ul>
    </details>
  );
}

/** How many items wait in a queue, beside its link (nothing when none). */
function QueueBadge({ count, label }: { count: number; label: string }) {
  if (count === 0) return null;
  return (
    <span className="ml-1.5 rounded-full bg-red-600 px-1.5 text-xs font-semibold text-white" title={label.replace("{{count}}", queueCountText(count))} data-testid="staff-queue-count">
      {queueCountText(count)}
      <span className="sr-only"> ({label.replace("{{count}}", queueCountText(count))})</span>
    </span>
  );
}

/** An error of a staff page (a refused role, the api away) shows in the staff frame's place, not the members' layout. */
export function ErrorBoundary() {
  return (
    <main id="main" className="min-h-screen bg-gray-50">
      <GeneralErrorBoundary />
    </main>
  );
}
