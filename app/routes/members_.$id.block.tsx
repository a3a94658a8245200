import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { BlockQuery, BlockResponse } from "#contract/blocks";
import { MemberResponse } from "#contract/members";
import { apiFor } from "~/utils/api.server";
import { fixedT, metaDescription } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { safeRedirectPath } from "~/utils/paths";
import { requireUser } from "~/utils/session.server";
import { MemberErrorBoundary } from "~/features/members/member-actions";
import type { BlockedByMemberData } from "~/types";
import { pageMeta } from "~/utils/page-title";
import { Button } from "~/components/ui/button";

/*
 * /members/{id}/block: block and unblock. POST intent=block|unblock, then back to
 * `redirectTo` (default: the member's page). GET is the confirmation page for blocking without JavaScript.
 */

function memberId(params: { id?: string }): number {
  const parsed = BlockQuery.safeParse({ id: params.id });
  if (!parsed.success) throw data(null, { status: 404 });
  return parsed.data.id;
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  await requireUser(request, context);
  const id = memberId(params);
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent !== "block" && intent !== "unblock") throw data(null, { status: 400 });
  const api = apiFor(request, context);
  const result = intent === "block" ? await api.post("/api/block.php", BlockResponse, { id }) : await api.delete("/api/block.php", BlockResponse, { id });
  if (!result.ok) throw data(null, { status: result.status === 400 ? 404 : result.status });
  return redirect(safeRedirectPath(form.get("redirectTo"), `/members/${id}`));
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const locale = urlLocale(request);
  await requireUser(request, context);
  const id = memberId(params);
  const result = await apiFor(request, context).get("/api/member.php", MemberResponse, { id });
  if (!result.ok) {
    if (result.error.error === "blocked_by_member") {
      const blocked: BlockedByMemberData = { blocked_by_member: { name: String(result.error.params?.name ?? "") } };
      throw data(blocked, { status: 403 });
    }
    throw data(null, { status: result.status === 400 ? 404 : result.status });
  }
  const { profile, relation } = result.data;
  // Already blocked: the member's page says so and offers to unblock.
  if (relation?.blocked_by_me) throw redirect(`/members/${id}`);
  return { member: { id: profile.id, name: profile.name }, title: fixedT(locale, "member")("block.metaTitle", { name: profile.name }), description: metaDescription(locale, "block", { name: profile.name }) };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [...pageMeta(data, matches), { name: "robots", content: "noindex" }];

export default function BlockConfirmation() {
  const { t } = useTranslation("member");
  const { member } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const memberPage = `/members/${member.id}`;
  return (
    <section className="container flex justify-center py-12">
      <div className="w-full max-w-md rounded-2xl bg-white p-6 shadow-sm ring-1 ring-gray-100" data-testid="block-confirmation">
        <h1 className="text-2xl font-bold text-gray-900">{t("block.title", { name: member.name })}</h1>
        <p className="mt-3 text-gray-700">{t("block.explanation")}</p>
        <Form method="post" className="mt-6 flex flex-wrap items-center gap-3">
          <input type="hidden" name="intent" value="block" />
          <input type="hidden" name="redirectTo" value={memberPage} />
          <Button disabled={busy} variant="danger" size="md">
            {t("block.submit")}
          </Button>
          <Link to={memberPage} className="rounded-full px-4 py-2 font-semibold text-gray-700 hover:text-gray-900">
            {t("block.cancel")}
          </Link>
        </Form>
      </div>
    </section>
  );
}

export function ErrorBoundary() {
  return <MemberErrorBoundary />;
}
