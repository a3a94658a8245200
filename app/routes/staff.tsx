import type { LoaderFunctionArgs } from "@remix-run/node";
import { Form, NavLink, Outlet, useLoaderData } from "@remix-run/react";
import { requireStaff } from "~/features/staff/staff-api.server";
import { staffTexts } from "~/features/staff/staff-texts.server";
import { Button } from "~/components/ui/button";
import { GeneralErrorBoundary } from "~/components/layout/error-boundary";

export const handle = { layout: "staff", hideEntryWarning: true };

/** Issue 25: the frame of every staff page: who is logged in, the pages their role may open, and log out. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const staff = await requireStaff(request, context);
  const texts = staffTexts();
  return { staff, texts: { brand: texts.brand, nav: texts.nav, role: texts.roles[staff.role] } };
}

const navLink = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 text-sm font-medium ${isActive ? "bg-gray-900 text-white" : "text-gray-700 hover:bg-gray-100 hover:text-gray-900"}`;

export default function StaffFrame() {
  const { staff, texts } = useLoaderData<typeof loader>();
  return (
    <div className="min-h-screen bg-gray-50">
      <header className="border-b border-gray-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
          <p className="font-semibold text-gray-900">{texts.brand}</p>
          <nav aria-label={texts.nav.label} className="flex flex-wrap gap-1">
            <NavLink to="/staff" end className={navLink}>
              {texts.nav.dashboard}
            </NavLink>
            {staff.role === "admin" ? (
              <NavLink to="/staff/audit" className={navLink}>
                {texts.nav.audit}
              </NavLink>
            ) : null}
          </nav>
          <div className="ml-auto flex items-center gap-3 text-sm text-gray-700">
            <span data-testid="staff-who">{texts.nav.signedInAs.replace("{{name}}", staff.name).replace("{{role}}", texts.role)}</span>
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

/** An error of a staff page (a refused role, the api away) shows in the staff frame's place, not the members' layout. */
export function ErrorBoundary() {
  return (
    <main id="main" className="min-h-screen bg-gray-50">
      <GeneralErrorBoundary />
    </main>
  );
}
