import type { MouseEvent } from "react";
import { Form, Link, useLocation, useNavigation, useSubmit } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { MemberRelation } from "#contract/members";
import { whenShown } from "~/utils/when-shown";
import { buttonClass as uiButtonClass } from "~/components/ui/button";

// The member page's error boundary (the blocked message, else the general error page) loads when shown.
export const MemberErrorBoundary = whenShown("MemberErrorBoundary", () => import("./member-error").then((m) => m.MemberErrorBoundary));
// Shown on fictional profiles and to a member who blocked this one only.
export const FictionalLabel = whenShown("FictionalLabel", () => import("./fictional-label").then((m) => m.FictionalLabel));
const BlockedNotice = whenShown("BlockedNotice", () => import("./member-blocked").then((m) => m.BlockedNotice));

/*
 * docs/product.md §2 "Member profile actions": message, gift, block, unblock (like and unlike are the LikeButton's).
 * Blocking asks first: with JavaScript a confirm dialog, without it the confirmation page
 * /members/{id}/block. Every button is a plain form posting to that route's action.
 */

type Member = { id: number; name: string };

const buttonClass = "inline-flex items-center justify-center rounded-full px-4 py-2 text-sm font-semibold";
const primaryButton = uiButtonClass({ size: "sm" });
const quietButton = `${buttonClass} bg-white text-gray-700 ring-1 ring-gray-300 hover:bg-gray-50 hover:text-gray-900`;

/** The actions bar of a member's page; `relation` is null for visitors, who get a login link instead. */
export function MemberActions({ member, relation }: { member: Member; relation: MemberRelation | null }) {
  const { t } = useTranslation("member");
  const location = useLocation();
  if (!relation) {
    const login = `/login?redirectTo=${encodeURIComponent(location.pathname + location.search)}`;
    return (
      <div className="mt-4 flex flex-wrap items-center gap-3 rounded-xl bg-white p-4 ring-1 ring-gray-100" data-testid="member-actions">
        <p className="text-sm text-gray-700">{t("actions.loginPrompt", { name: member.name })}</p>
        <Link to={login} className={primaryButton}>
          {t("actions.login")}
        </Link>
      </div>
    );
  }
  if (relation.blocked_by_me) return <BlockedNotice member={member} />;
  return (
    <nav aria-label={t("actions.label")} className="mt-4 flex flex-wrap gap-2" data-testid="member-actions">
      <Link to={`/members/${member.id}/chat`} className={primaryButton}>
        {t("actions.message")}
      </Link>
      <Link to={`/members/${member.id}/chat?gift=1`} className={quietButton}>
        {t("actions.gift")}
      </Link>
      <BlockLink member={member} />
      <Link to={`/members/${member.id}/report`} className={quietButton} data-testid="report-member">
        {t("actions.report")}
      </Link>
    </nav>
  );
}

/** Without JavaScript a link to the confirmation page; with it a confirm dialog, then the same POST. */
function BlockLink({ member }: { member: Member }) {
  const { t } = useTranslation("member");
  const submit = useSubmit();
  const navigation = useNavigation();
  const action = `/members/${member.id}/block`;
  const busy = navigation.state !== "idle" && navigation.formAction === action;
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    if (!window.confirm(t("block.confirm", { name: member.name }))) return;
    submit({ intent: "block", redirectTo: `/members/${member.id}` }, { method: "post", action });
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
  const navigation = useNavigation();
  const action = `/members/${member.id}/block`;
  const busy = navigation.state !== "idle" && navigation.formAction === action;
  return (
    <Form method="post" action={action}>
      <input type="hidden" name="intent" value="unblock" />
      <input type="hidden" name="redirectTo" value={redirectTo ?? `/members/${member.id}`} />
      <button type="submit" disabled={busy} aria-label={label} className={`${quietButton} disabled:opacity-60`}>
        {t("actions.unblock")}
      </button>
    </Form>
  );
}

