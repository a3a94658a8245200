import { useEffect, useState } from "react";
import { useFetcher, useLocation } from "@remix-run/react";
import { useAtomValue } from "jotai";
import { useHydrateAtoms } from "jotai/utils";
import { useTranslation } from "react-i18next";
import { inMembersArea, timeBonusModalDelayMs } from "#contract/offers";
import { timeBonusEndsAtom, timeBonusLeftAtom } from "~/features/payments/offers-state";
import { formatHours, type Offer } from "~/features/payments/offers";
import { useLocale, useRootData } from "~/utils/root-data";
import { whenShown } from "~/utils/when-shown";
import { TimeBonusCountdown } from "./time-bonus-countdown";

// The banner is in the server's page; the modals open in the browser only: their code (and the Modal's) loads then,
// so the banner's code never waits for it.
const OfferDialog = whenShown("OfferDialog", () => import("./offer-dialog").then((m) => m.OfferDialog));
import { ButtonLink } from "~/components/ui/button";
import { dateTimeFormat } from "~/utils/intl";

/** Whether the time bonus still runs (it clears at zero). */
function useTimeBonusRunning(offer: Offer): boolean {
  useHydrateAtoms(new Map([[timeBonusEndsAtom, offer.expires]]));
  const left = useAtomValue(timeBonusLeftAtom);
  return offer.kind !== "timebonus" || left > 0;
}

/**
 * docs/product.md §2 "Welcome discount banner" and the time bonus (§4): the member's offer with a link to the
 * credits page. The time bonus counts down and is gone at zero; the welcome discount shows its last day.
 */
export function OfferBanner() {
  const root = useRootData();
  const offer = root?.offer;
  if (!offer) return null;
  return <OfferBannerOf offer={offer} />;
}

function OfferBannerOf({ offer }: { offer: Offer }) {
  const { t } = useTranslation("offers");
  const locale = useLocale();
  const running = useTimeBonusRunning(offer);
  if (!running) return null;
  return (
    <aside aria-label={t("label")} className="border-b border-amber-200 bg-amber-50" data-testid={`offer-${offer.kind}`}>
      <div className="container flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-2.5 text-sm text-gray-900">
        {offer.kind === "timebonus" && offer.expires ? (
          <p>
            {t("timeBonus.banner", { percentage: offer.value_percentage })} <TimeBonusCountdown expires={offer.expires} />
          </p>
        ) : (
          <p>{t("welcome.banner", { percentage: offer.value_percentage, date: offer.expires ? formatDay(offer.expires, locale) : "" })}</p>
        )}
        <ButtonLink to="/credits" size="sm" data-testid="offer-link">
          {t("cta")}
        </ButtonLink>
      </div>
      {offer.kind === "welcome" ? <WelcomeModal offer={offer} /> : null}
    </aside>
  );
}

function formatDay(iso: string, locale: string): string {
  return dateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
}

function useInMembersArea(): boolean {
  const location = useLocation();
  return inMembersArea(location.pathname);
}

/** docs/product.md §2 welcome discount modal: once per browser session, on entering the members area (needs JavaScript; the banner does not). */
function WelcomeModal({ offer }: { offer: Offer }) {
  const { t } = useTranslation("offers");
  const locale = useLocale();
  const inArea = useInMembersArea();
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (!inArea) return;
    try {
      if (sessionStorage.getItem("welcome-discount-shown")) return;
    } catch {
      return;
    }
    // After hydration's paint; marked shown only when it really opens.
    const timer = setTimeout(() => {
      try {
        sessionStorage.setItem("welcome-discount-shown", String(Date.now()));
      } catch {
        // Private mode: shown once per page instead.
      }
      setOpen(true);
    }, 0);
    return () => clearTimeout(timer);
  }, [inArea]);
  if (!open) return null;
  return (
    <OfferDialog title={t("welcome.modalTitle")} onClose={() => setOpen(false)} testId="welcome-modal">
      <p>{t("welcome.modalBody", { percentage: offer.value_percentage, date: offer.expires ? formatDay(offer.expires, locale) : "" })}</p>
      <ButtonLink to="/credits" onClick={() => setOpen(false)} className="mt-5">
        {t("cta")}
      </ButtonLink>
    </OfferDialog>
  );
}

/**
 * docs/product.md §4: the time bonus modal ("act fast", the time left) opens 40 s after the member enters the members
 * area; the root loader decides who qualifies (0 credits, never paid, not dismissed). Closing it dismisses
 * it for good (hide-time-bonus-modal).
 */
export function TimeBonusModal() {
  const root = useRootData();
  const offer = root?.offer;
  if (!offer || offer.kind !== "timebonus" || !offer.expires) return null;
  return <TimeBonusModalOf offer={offer} />;
}

function TimeBonusModalOf({ offer }: { offer: Offer }) {
  const { t } = useTranslation("offers");
  const locale = useLocale();
  const location = useLocation();
  const inArea = useInMembersArea();
  const running = useTimeBonusRunning(offer);
  const left = useAtomValue(timeBonusLeftAtom);
  const fetcher = useFetcher();
  const [open, setOpen] = useState(false);
  const [closed, setClosed] = useState(false);
  useEffect(() => {
    if (!inArea || open || closed) return;
    const timer = setTimeout(() => setOpen(true), timeBonusModalDelayMs);
    return () => clearTimeout(timer);
  }, [inArea, open, closed]);
  if (!open || closed || !running) return null;
  const close = () => {
    setClosed(true);
    fetcher.submit({ key: "hide-time-bonus-modal", redirectTo: location.pathname + location.search }, { method: "post", action: "/dismiss" });
  };
  return (
    <OfferDialog title={t("timeBonus.modalTitle")} onClose={close} testId="time-bonus-modal">
      <p>{t("timeBonus.modalBody", { percentage: offer.value_percentage, time: formatHours(Math.ceil(left / 3600), locale) })}</p>
      <p className="mt-3 text-2xl">{offer.expires ? <TimeBonusCountdown expires={offer.expires} /> : null}</p>
      <ButtonLink to="/credits" onClick={() => setClosed(true)} className="mt-5" data-testid="time-bonus-buy">
        {t("cta")}
      </ButtonLink>
    </OfferDialog>
  );
}
