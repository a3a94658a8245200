import { useState } from "react";
import { useTranslation } from "react-i18next";
import { buttonClass } from "~/components/ui/button";
import { Modal } from "~/components/ui/modal";

/**
 * docs/product.md §5: an invalid date of birth gives the popup "Invalid date of birth.". The OK button is a
 * label for a checkbox that hides it, so it closes without JavaScript too.
 */
export function DateOfBirthPopup({ minAge }: { minAge: number }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(true);
  return (
    <div>
      <input type="checkbox" id="dob-popup-dismissed" className="peer sr-only" />
      <Modal
        open={open}
        alert
        title={t("errors.invalid_date_of_birth")}
        titleClassName="font-semibold text-gray-900"
        onClose={() => setOpen(false)}
        size="xs"
        backdropClassName="bg-gray-900/60"
        dialogClassName="peer-checked:hidden!"
        className="p-6 text-center"
        testId="dob-popup"
      >
        <p className="mt-1 text-sm text-gray-600">{t("signup.minimumAge", { age: minAge })}</p>
        <label htmlFor="dob-popup-dismissed" onClick={() => setOpen(false)} className={buttonClass({ size: "md", className: "mt-4 cursor-pointer" })}>
          {t("signup.popupClose")}
        </label>
      </Modal>
    </div>
  );
}
