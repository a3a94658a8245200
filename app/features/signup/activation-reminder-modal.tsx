import { useNavigate } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ResendActivationForm } from "./activation-reminder";
import { Modal } from "~/components/ui/modal";

/** docs/product.md §4 activation reminder as a modal; closing it leads to closeHref (the page without api_signup_complete). */
export function ActivationReminderModal({ closeHref }: { closeHref: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Modal
      title={t("reminder.title")}
      titleClassName="font-semibold text-gray-900"
      onClose={() => navigate(closeHref, { replace: true, preventScrollReset: true })}
      closeLabel={t("reminder.close")}
      closeHref={closeHref}
      placement="bottom"
      backdropClassName="bg-gray-900/60"
      className="p-5"
      testId="activation-reminder-modal"
    >
      <p className="mt-1 text-sm text-gray-700">{t("reminder.body")}</p>
      <ResendActivationForm />
    </Modal>
  );
}
