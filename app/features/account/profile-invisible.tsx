import { Form, useActionData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormAlert } from "~/components/ui/form-fields";

/**
 * docs/product.md §4 invisible mode on /profile: its own small form (a plain POST, so it works without JavaScript)
 * that stores the opposite of the current setting. The lists that hide invisible members are elsewhere.
 */
export function InvisibleModeForm({ invisible }: { invisible: boolean }) {
  const { t } = useTranslation("profile");
  const navigation = useNavigation();
  const actionData = useActionData<{ intent: string; error?: string }>();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST" && navigation.formData?.get("intent") === "invisible";
  const error = actionData?.intent === "invisible" ? actionData.error : undefined;
  return (
    <Form method="post" className="space-y-3">
      <input type="hidden" name="intent" value="invisible" />
      <input type="hidden" name="invisible" value={invisible ? "0" : "1"} />
      {error ? <FormAlert>{error}</FormAlert> : null}
      <p className="text-sm text-gray-600">{t("invisible.lead")}</p>
      <p className="font-medium text-gray-900" data-testid="invisible-state" data-invisible={invisible}>
        {t(invisible ? "invisible.on" : "invisible.off")}
      </p>
      <button
        type="submit"
        disabled={busy}
        className="rounded-full border border-secondary px-4 py-2 text-sm font-semibold text-secondary hover:bg-secondary/10 disabled:opacity-60"
      >
        {t(invisible ? "invisible.turnOff" : "invisible.turnOn")}
      </button>
    </Form>
  );
}
