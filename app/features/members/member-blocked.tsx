import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { UnblockButton } from "./member-actions";


/** On the page of a member the viewer blocked: the notice with a way to unblock (MemberActions shows it). */
export function BlockedNotice({ member }: { member: { id: number; name: string } }) {
  const { t } = useTranslation("member");
  return (
    <div role="status" className="mt-4 rounded-xl bg-amber-50 p-4 ring-1 ring-amber-200" data-testid="member-blocked">
      <p className="text-sm text-amber-900">{t("actions.blockedNotice", { name: member.name })}</p>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <UnblockButton member={member} />
        <Link to="/profile/blocked" className="text-sm">
          {t("actions.manageBlocked")}
        </Link>
      </div>
    </div>
  );
}
