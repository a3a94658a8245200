import type { ReactNode } from "react";
import { TopNav, BrandBar } from "./top-nav";
import { Footer } from "./footer";
import { useEntryWarningVisible } from "~/features/entry-warning/entry-warning-visible";
import { SignupModal } from "~/features/signup/signup-modal";
import { useRootData } from "~/utils/root-data";
import { afterHydration, whenShown } from "~/utils/when-shown";

// Both render nothing before hydration: their code loads after it.
const LiveEvents = afterHydration(() => import("~/features/chat/live-events").then((m) => m.LiveEvents));
const LikeModal = afterHydration(() => import("~/features/discovery/like-modal-lazy").then((m) => m.LikeModal));

// Shown in rare states only (an unconfirmed account, a member's alerts, a visitor's first page): their code loads when shown.
const ActivationReminder = whenShown("ActivationReminder", () => import("~/features/signup/activation-reminder").then((m) => m.ActivationReminder));
const MemberAlerts = whenShown("MemberAlerts", () => import("~/features/members/member-alerts").then((m) => m.MemberAlerts));
const EntryWarning = whenShown("EntryWarning", () => import("~/features/entry-warning/entry-warning").then((m) => m.EntryWarning));
// A member's offer shows in their first days only (time bonus, welcome discount).
const OfferBanner = whenShown("OfferBanner", () => import("~/features/payments/offer-notices").then((m) => m.OfferBanner));
const TimeBonusModal = whenShown("TimeBonusModal", () => import("~/features/payments/offer-notices").then((m) => m.TimeBonusModal));

/** Pages that show the offer themselves (the prices) or where a banner would be in the way of paying. */
const offerFreePaths = /^\/(credits|payment|sandbox-checkout|directdebit)(\/|$)/;

export type LayoutName = "default" | "chat" | "lander" | "empty" | "staff";

/** docs/product.md §2 layouts: default (navigation, footer, disclaimer), chat (full screen), lander (brand bar and footer), empty. */
export function LayoutFrame({ layout, children }: { layout: LayoutName; children: ReactNode }) {
  const entryWarning = useEntryWarningVisible(layout);
  return (
    <>
      <LayoutBody layout={layout}>{children}</LayoutBody>
      {layout === "staff" ? null : <LiveEvents />}
      {layout === "default" || layout === "empty" ? <SignupModal /> : null}
      {entryWarning ? <EntryWarning layout={layout} /> : null}
    </>
  );
}

function LayoutBody({ layout, children }: { layout: LayoutName; children: ReactNode }) {
  const root = useRootData();
  switch (layout) {
    case "chat":
      // Full screen: the chat page (its list and the open conversation) is the page's main content. The composer
      // reminds an unconfirmed member to activate; a smartphone arriving from a member funnel's signup
      // (api_signup_complete) gets the reminder's modal too.
      return (
        <>
          <main id="main" className="flex h-dvh flex-col">
            {children}
          </main>
          {root?.activationReminder.show ? <ActivationReminder modalOnly /> : null}
        </>
      );
    case "empty":
      return <main id="main">{children}</main>;
    case "staff":
      // The staff pages (app/routes/staff*.tsx) bring their own header and main: none of the members' parts.
      return <>{children}</>;
    case "lander":
      return (
        <div className="flex min-h-screen flex-col">
          <BrandBar />
          <main id="main" className="flex-1">
            {children}
          </main>
          <Footer />
        </div>
      );
    default:
      return (
        <div className="flex min-h-screen flex-col">
          <TopNav />
          {root?.activationReminder.show ? <ActivationReminder /> : null}
          {root?.alerts.length ? <MemberAlerts /> : null}
          {root?.offer && !offerFreePaths.test(root.path) ? <OfferBanner /> : null}
          {root?.timeBonusModal ? <TimeBonusModal /> : null}
          <main id="main" className="flex-1">
            {children}
          </main>
          <LikeModal />
          <Footer withDisclaimer />
        </div>
      );
  }
}
