import type { ReactNode } from "react";
import { useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { Teaser } from "#contract/members";
import type { MemberFunnelData } from "~/features/landers/member-funnel.server";
import { FictionalLabel } from "../members/fictional-label";
import { SignupForm } from "../signup/signup-form";
import type { SignupActionData } from "~/types";
import { ButtonLink } from "~/components/ui/button";

/** Member funnels: the parts the four designs share (app/features/landers/member-funnel.server.ts loads them). */
export function useFunnel() {
  return useLoaderData<MemberFunnelData>();
}

/** The member's photo, or their initial on the site's colours when they have none. */
export function FunnelPhoto({ member, cdn, alt, className, large }: { member: Teaser; cdn: string; alt: string; className?: string; large?: boolean }) {
  const src = member.main_image ? cdn + (large ? member.main_image.filename : member.main_image.thumb_filename) : null;
  return src ? (
    <img src={src} alt={alt} width={large ? 480 : 240} height={large ? 480 : 240} className={`bg-gray-100 object-cover ${className ?? ""}`} data-testid="funnel-photo" />
  ) : (
    <div role="img" aria-label={alt} className={`flex items-center justify-center bg-gradient-to-br from-primary to-secondary text-6xl font-semibold text-white ${className ?? ""}`}>
      {member.name.slice(0, 1)}
    </div>
  );
}

/** Name, age and city, with the fictional label of a site-run profile. */
export function FunnelMemberFacts({ dark }: { dark?: boolean }) {
  const { member, texts, fictional } = useFunnel();
  return (
    <div data-testid="funnel-member">
      <p className={`text-2xl font-bold ${dark ? "text-white" : "text-gray-900"}`}>{member.name}</p>
      <p className={dark ? "text-white/90" : "text-gray-600"}>{texts.about}</p>
      {fictional ? <FictionalLabel icon={fictional.icon} warning={fictional.warning} /> : null}
    </div>
  );
}

/**
 * The signup form, posted to the page itself (its action creates the account and opens the chat with the
 * member); a closed site says so, an invite-only one links to /signup where the code is asked.
 */
export function FunnelSignup({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  const location = useLocation();
  const navigation = useNavigation();
  const actionData = useActionData<SignupActionData>();
  const { gate, minAge, askMessage, texts } = useFunnel();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  return (
    <section id="join" aria-labelledby="funnel-form-title" className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-gray-100" data-testid="funnel-signup">
      <h2 id="funnel-form-title" className="text-xl font-bold text-gray-900">
        {texts.formTitle}
      </h2>
      {children}
      {gate === "closed" || gate === "closed_trafficsource" ? (
        <p className="mt-4 text-gray-700" data-testid="signup-closed">
          {t(gate === "closed" ? "signup.closed" : "signup.closedTrafficsource")}
        </p>
      ) : gate === "invitation" ? (
        <p className="mt-4">
          <ButtonLink to="/signup">
            {texts.signupLink}
          </ButtonLink>
        </p>
      ) : (
        <>
          <p className="mt-1 text-sm text-gray-600">{texts.formLead}</p>
          <SignupForm action={location.pathname + location.search} lastResult={actionData} busy={busy} minAge={minAge} askMessage={askMessage} />
        </>
      )}
    </section>
  );
}
