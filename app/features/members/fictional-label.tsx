import { useTranslation } from "react-i18next";

/** docs/product.md §3 settings: a fictional profile shows the site's fictional_icon and fictional_warning (a default text when the site has none). */
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
