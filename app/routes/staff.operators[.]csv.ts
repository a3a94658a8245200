import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiFor } from "~/utils/api.server";
import { requireStaff } from "~/features/staff/staff-api.server";
import { operatorFiguresCsv } from "~/features/staff/operator-figures";
import { endpoints } from "#contract/endpoints/index";

/** /staff/operators.csv: the operator figures (admins) as a CSV download, for the days asked (default 30). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const raw = new URL(request.url).searchParams.get("days");
  const days = raw && /^\d{1,3}$/.test(raw) && Number(raw) >= 1 && Number(raw) <= 366 ? Number(raw) : 30;
  const result = await apiFor(request, context).call(endpoints.operatorFigures, { query: { days } });
  if (!result.ok) return new Response(null, { status: result.status, headers: { "Cache-Control": "no-store" } });
  return new Response(operatorFiguresCsv(result.data.rows), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="operator-figures-${new Date().toISOString().slice(0, 10)}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
