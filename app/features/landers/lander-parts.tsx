import { Link, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { LanderMember } from "~/features/landers/landers";
import type { LanderSharedTexts } from "~/features/landers/landers.server";
import { useRootData } from "~/utils/root-data";
import { whenShown } from "~/utils/when-shown";
import { buttonClass } from "~/components/ui/button";

// conform, zod and the e-mail checker load when the form is on the page, not with the lander's first load.
const SignupForm = whenShown("SignupForm", () => import("../signup/signup-form").then((m) => m.SignupForm));

export const ctaClass = buttonClass({ size: "xl", className: "shadow-lg shadow-primary/30 transition" });

/** The page's call to action: a jump to its signup section (a plain anchor, so it works without JavaScript). */
export function JoinLink({ children, className = ctaClass }: { children: ReactNode; className?: string }) {
  return (
    <a href="#join" className={className} data-testid="lander-cta">
      {children}
    </a>
  );
}

/** docs/product.md §3: a profile run by the site keeps its label wherever it is shown. */
export function FictionalBadge({ label, warning, className = "absolute left-2 top-2" }: { label: string; warning: string; className?: string }) {
  return (
    <span className={`${className} z-10 rounded-full bg-white/95 px-2 py-0.5 text-xs font-medium text-sky-900 shadow-sm`} title={warning} data-testid="fictional-badge">
      {label}
      <span className="sr-only">: {warning}</span>
    </span>
  );
}

/** A member's name and age, and the city when known. */
export function MemberCaption({ member, className = "" }: { member: LanderMember; className?: string }) {
  return (
    <span className={className}>
      <span className="font-semibold">{member.name}</span>, {member.age}
      {member.city ? <span className="block truncate text-sm opacity-80">{member.city}</span> : null}
    </span>
  );
}

/** When the site has no members with a photo yet: an invitation instead of an empty design; the signup follows. */
export function LanderEmpty({ texts }: { texts: LanderSharedTexts }) {
  return (
    <div className="mx-auto max-w-xl rounded-2xl bg-white p-8 text-center shadow-sm ring-1 ring-gray-100" data-testid="lander-empty">
      <svg viewBox="0 0 48 48" aria-hidden="true" className="mx-auto h-12 w-12 text-primary">
        <circle cx="18" cy="18" r="8" fill="currentColor" opacity="0.35" />
        <circle cx="31" cy="20" r="7" fill="currentColor" opacity="0.6" />
        <path d="M4 42c1-8 7-13 14-13s13 5 14 13M22 42c1-7 5-11 10-11s10 4 12 11" fill="none" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
      </svg>
      <h2 className="mt-4 text-xl font-bold text-gray-900">{texts.emptyTitle}</h2>
      <p className="mt-2 text-gray-600">{texts.emptyLead}</p>
    </div>
  );
}

/**
 * Where every lander ends: the signup form of /signup (it posts there, so the account is made with the kept
 * tracking values and the visitor goes on to the next signup step). Sites that are closed or invite-only
 * get a link to /signup instead, which explains or asks for the invitation.
 */
export function LanderSignup({ texts, tone = "light", heading, lead }: { texts: LanderSharedTexts; tone?: "light" | "dark"; heading?: string; lead?: string }) {
  const root = useRootData();
  const { t } = useTranslation();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const signup = root?.signup;
  const dark = tone === "dark";
  return (
    // Not id="signup": that is the form's id, which its inputs name in their form attribute.
    <section id="join" aria-labelledby="lander-signup-title" className="scroll-mt-4 py-12" data-testid="lander-signup">
      <div className="container flex justify-center">
        <div className={`w-full max-w-md rounded-3xl p-6 shadow-xl sm:p-8 ${dark ? "bg-white/95 ring-1 ring-white/20" : "bg-white ring-1 ring-gray-100"}`}>
          <h2 id="lander-signup-title" className="text-2xl font-bold text-gray-900">
            {heading ?? texts.joinTitle}
          </h2>
          <p className="mt-1 text-gray-600">{lead ?? texts.joinLead}</p>
          {signup?.gate === "open" ? (
            <SignupForm action="/signup" lastResult={undefined} busy={busy} minAge={signup.minAge} askMessage={signup.askMessage} />
          ) : (
            <div className="mt-6 space-y-4">
              {signup?.gate === "closed" || signup?.gate === "closed_trafficsource" ? (
                <p className="text-gray-700" data-testid="signup-closed">
                  {t(signup.gate === "closed" ? "signup.closed" : "signup.closedTrafficsource")}
                </p>
              ) : (
                <Link to="/signup" className={`${ctaClass} w-full`}>
                  {texts.joinElsewhere}
                </Link>
              )}
            </div>
          )}
        </div>
      </div>
    </section>
  );
}
