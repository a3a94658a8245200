import type { ReactNode } from "react";
import { TopNav, BrandBar } from "./top-nav";
import { Footer } from "./footer";
import { EntryWarning } from "./entry-warning";
import { SignupModal } from "./signup-modal";
import { ActivationReminder } from "./activation-reminder";
import { LikeModal } from "./like-modal-lazy";
import { MemberAlerts } from "./member-alerts";

export type LayoutName = "default" | "chat" | "lander" | "empty";

/** Spec 2 layouts: default (navigation, footer, disclaimer), chat (full screen), lander (brand bar and footer), empty. */
export function LayoutFrame({ layout, children }: { layout: LayoutName; children: ReactNode }) {
  return (
    <>
      <LayoutBody layout={layout}>{children}</LayoutBody>
      {layout === "default" || layout === "empty" ? <SignupModal /> : null}
      <EntryWarning layout={layout} />
    </>
  );
}

function LayoutBody({ layout, children }: { layout: LayoutName; children: ReactNode }) {
  switch (layout) {
    case "chat":
      return <div className="flex h-dvh flex-col">{children}</div>;
    case "empty":
      return <main id="main">{children}</main>;
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
          <ActivationReminder />
          <MemberAlerts />
          <main id="main" className="flex-1">
            {children}
          </main>
          <LikeModal />
          <Footer withDisclaimer />
        </div>
      );
  }
}
