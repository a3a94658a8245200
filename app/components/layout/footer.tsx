import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useLocale, useRootData } from "~/utils/root-data";
import { regionNames } from "~/utils/intl";

const links = [
  ["/pages/terms", "footer.terms"],
  ["/pages/privacy", "footer.privacy"],
  ["/pages/cookies", "footer.cookies"],
  ["/pages/ban", "footer.ban"],
  ["/pricing", "footer.pricing"],
  ["/complaints", "footer.complaints"],
  ["/pages/return-policy", "footer.returnPolicy"],
  ["/pages/faq", "footer.faq"],
  ["/pages/service", "footer.service"],
] as const;

export function Footer({ withDisclaimer = false }: { withDisclaimer?: boolean }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const root = useRootData();
  const site = root?.site.name ?? "Rendezvous";
  const custodian = root?.custodian;
  return (
    <footer className="mt-12 border-t border-gray-200 bg-white text-sm text-gray-600">
      <div className="container py-6">
        <nav aria-label={t("footer.label")}>
          <ul className="footer-links flex flex-wrap gap-x-4 gap-y-2">
            {links.map(([to, key]) => (
              <li key={to}>
                <Link to={to}>{t(key)}</Link>
              </li>
            ))}
          </ul>
        </nav>
        {withDisclaimer ? <p className="mt-4 text-xs leading-relaxed text-gray-500">{t("footer.disclaimer", { site })}</p> : null}
        {locale === "en" ? (
          <p className="mt-3 text-xs text-gray-500" data-testid="us-footer">
            <Link to="/pages/2257-compliance-statement" className="text-gray-500 underline hover:text-primary">
              {t("footer.usCompliance")}
            </Link>
            {custodian ? (
              <>
                {" "}
                <span data-testid="us-custodian">
                  {t("footer.usCustodian", { ...custodian, country: regionNames("en").of(custodian.country) ?? custodian.country })}
                </span>
              </>
            ) : null}
          </p>
        ) : null}
        <p className="mt-3 text-xs text-gray-500">© {new Date().getUTCFullYear()} {site}</p>
      </div>
    </footer>
  );
}
