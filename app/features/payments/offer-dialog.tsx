import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Modal } from "~/components/ui/modal";

/** The welcome discount and time bonus modals' dialog (app/features/payments/offer-notices.tsx decides when it is open). */
export function OfferDialog({ title, onClose, testId, children }: { title: string; onClose: () => void; testId: string; children: ReactNode }) {
  const { t } = useTranslation("offers");
  return (
    <Modal title={title} titleClassName="text-2xl font-bold text-primary" onClose={onClose} closeLabel={t("close")} closeTestId={`${testId}-close`} className="p-6 text-center" testId={testId}>
      <div className="mt-3">{children}</div>
    </Modal>
  );
}
