import type { MouseEvent } from "react";
import { Form, Link, isRouteErrorResponse, useLocation, useNavigation, useRouteError, useSubmit } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { MemberRelation } from "#contract/members";
import { GeneralErrorBoundary } from "./error-page";
import { useHref } from "./root-data";

/*
 * Spec 2 "Member profile actions": message, gift, block, unblock (like and unlike are the LikeButton's).
 * Blocking asks first: with JavaScript a confirm dialog, without it the confirmation page
 * /members/{id}/block. Every button is a plain form posting to that route's action.
 */

type Member = { id: number; name: string };

const buttonClass = "inline-flex items-center justify-center rounded-full px-4 py-2 text-sm font-semibold";
const primaryButton = `${buttonClass} bg-primary text-white hover:bg-primary-dark hover:text-white`;
const quietButton = `${buttonClass} bg-white text-gray-700 ring-1 ring-gray-300 hover:bg-gray-50 hover:text-gray-900`;

/** The actions bar of a member's page; `relation` is null for visitors, who get a login link instead. */
export function MemberActions({ member, relation }: { member: Member; relation: MemberRelation | null }) {
  const { t } = useTranslation("member");
  const href = useHref();
  const location = useLocation();
  if (!relation) {
    const login = `${href("/login")}?redirectTo=${encodeURIComponent(location.pathname + location.search)}`;
    return (
      <div className="mt-4 flex flex-wrap items-center gap-3 rounded-xl bg-white p-4 ring-1 ring-gray-100" data-testid="member-actions">
        <p className="text-sm text-gray-700">{t("actions.loginPrompt", { name: member.name })}</p>
        <Link to={login} className={primaryButton}>
          {t("actions.login")}
        </Link>
      </div>
    );
  }
  if (relation.blocked_by_me) {
    return (
      <div role="status" className="mt-4 rounded-xl bg-amber-50 p-4 ring-1 ring-amber-200" data-testid="member-blocked">
        <p className="text-sm text-amber-900">{t("actions.blockedNotice", { name: member.name })}</p>
        <div className="mt-3 flex flex-wrap items-center gap-3">
          <UnblockButton member={member} />
          <Link to={href("/profile/blocked")} className="text-sm">
            {t("actions.manageBlocked")}
          </Link>
        </div>
      </div>
    );
  }
  return (
    <nav aria-label={t("actions.label")} className="mt-4 flex flex-wrap gap-2" data-testid="member-actions">
      <Link to={href(`/members/${member.id}/chat`)} className={primaryButton}>
        {t("actions.message")}
      </Link>
      <Link to={`${href(`/members/${member.id}/chat`)}?gift=1`} className={quietButton}>
        {t("actions.gift")}
      </Link>
      <BlockLink member={member} />
    </nav>
  );
}

/** Without JavaScript a link to the confirmation page; with it a confirm dialog, then the same POST. */
function BlockLink({ member }: { member: Member }) {
  const { t } = useTranslation("member");
  const href = useHref();
  const submit = useSubmit();
  const navigation = useNavigation();
  const action = href(`/members/${member.id}/block`);
  const busy = navigation.state !== "idle" && navigation.formAction === action;
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    if (!window.confirm(t("block.confirm", { name: member.name }))) return;
    submit({ intent: "block", redirectTo: href(`/members/${member.id}`) }, { method: "post", action });
  };
  return (
    <Link to={action} onClick={onClick} aria-disabled={busy || undefined} className={quietButton} data-testid="block-member">
      {t("actions.block")}
    </Link>
  );
}

/** Unblocks, then back to `redirectTo` (default: the member's page). */
export function UnblockButton({ member, redirectTo, label }: { member: Member; redirectTo?: string; label?: string }) {
  const { t } = useTranslation("member");
  const href = useHref();
  const navigation = useNavigation();
  const action = href(`/members/${member.id}/block`);
  const busy = navigation.state !== "idle" && navigation.formAction === action;
  return (
    <Form method="post" action={action}>
      <input type="hidden" name="intent" value="unblock" />
      <input type="hidden" name="redirectTo" value={redirectTo ?? href(`/members/${member.id}`)} />
      <button type="submit" disabled={busy} aria-label={label} className={`${quietButton} disabled:opacity-60`}>
        {t("actions.unblock")}
      </button>
    </Form>
  );
}

/** Spec 3 settings: a fictional profile shows the site's fictional_icon and fictional_warning (a default text when the site has none). */
export function FictionalLabel({ icon, warning }: { icon: string; warning: string }) {
  const { t } = useTranslation("member");
  // The icon is an image address or a short text (an emoji); the site decides.
  const isImage = /^(https?:\/\/|\/)/.test(icon);
  return (
    <p className="mt-3 flex items-center gap-2 rounded-lg bg-sky-50 px-3 py-2 text-sm text-sky-900" data-testid="fictional-label">
      {icon ? isImage ? <img src={icon} alt="" width={20} height={20} className="h-5 w-5" /> : <span aria-hidden="true">{icon}</span> : null}
      <span>{warning || t("fictional.warning")}</span>
    </p>
  );
}

/** What a loader throws when the member blocked the viewer (api 403 blocked_by_member); the boundary below shows it. */
export type BlockedByMemberData = { blocked_by_member: { name: string } };

/** Checked by hand rather than with zod: the member page should not load zod into the browser for this. */
function blockedByMemberName(data: unknown): string | null {
  const inner = (data as Partial<BlockedByMemberData> | null)?.blocked_by_member;
  return typeof inner?.name === "string" ? inner.name : null;
}

/** The member page's error boundary: the spec's blocked message with a way back, else the general error page. */
export function MemberErrorBoundary() {
  const error = useRouteError();
  const name = isRouteErrorResponse(error) && error.status === 403 ? blockedByMemberName(error.data) : null;
  if (name !== null) return <BlockedByMember name={name} />;
  return <GeneralErrorBoundary />;
}

function BlockedByMember({ name }: { name: string }) {
  const { t } = useTranslation(["member", "common"]);
  const href = useHref();
  return (
    <section className="container max-w-xl py-16 text-center" data-testid="blocked-by-member">
      <h1 className="text-xl font-semibold text-gray-900">{t("common:errors.blocked_by_member", { name })}</h1>
      <Link to={href("/members")} className="mt-8 inline-block rounded-full bg-primary px-6 py-2 font-semibold text-white hover:bg-primary-dark hover:text-white">
        {t("blockedBy.back")}
      </Link>
    </section>
  );
}
