import type { FieldView } from "~/components/ui/form-view";
import { useTranslation } from "react-i18next";
import type { Interest } from "#contract/settings";
import { genders, profileChoices, type ProfileChoiceField } from "~/features/account/profile-fields";
import { FieldErrors, SelectField } from "~/components/ui/form-fields";

/** The gender radios of signup step 3 and /profile; `fallback` is the member's current gender. */
export function GenderField({ field, label, fallback }: { field: FieldView; label: string; fallback?: string }) {
  const { t } = useTranslation();
  const checked = field.initialValue ?? fallback;
  return (
    <fieldset aria-describedby={field.errors ? field.errorId : undefined}>
      <legend className="block text-sm font-medium text-gray-700">{label}</legend>
      <div className="mt-1 flex gap-4">
        {genders.map((gender) => (
          <label key={gender} className="flex items-center gap-2">
            <input type="radio" name={field.name} value={gender} defaultChecked={checked === gender} />
            {t(`profile.gender.${gender}`)}
          </label>
        ))}
      </div>
      <FieldErrors field={field} />
    </fieldset>
  );
}

/** Interests as toggle chips (checkboxes, so they post without JavaScript); `fallback`: the member's current ids. */
export function InterestsField({ field, label, interests, fallback = [] }: { field: FieldView; label: string; interests: Interest[]; fallback?: number[] }) {
  const { t } = useTranslation();
  // conform keeps one chosen value as a string and several as a list.
  const initial: unknown = field.initialValue;
  const chosen = new Set(initial === undefined ? fallback.map(String) : Array.isArray(initial) ? initial.map(String) : [String(initial)]);
  return (
    <fieldset aria-describedby={field.errors ? field.errorId : undefined}>
      <legend className="block text-sm font-medium text-gray-700">{label}</legend>
      <div className="mt-2 flex flex-wrap gap-2">
        {interests.map((interest) => (
          <label
            key={interest.id}
            className="flex cursor-pointer items-center gap-1 rounded-full bg-gray-100 px-3 py-1 text-sm has-[:checked]:bg-primary-light has-[:checked]:text-primary-dark has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-primary/40"
          >
            <input type="checkbox" name={field.name} value={interest.id} defaultChecked={chosen.has(String(interest.id))} className="sr-only" />
            {t(`interests.${interest.key}`)}
          </label>
        ))}
      </div>
      <FieldErrors field={field} />
    </fieldset>
  );
}

/** A select of one choice field (hair colour, body type...), "Not specified" first. */
export function ProfileChoiceSelect({ name, field, fallback }: { name: ProfileChoiceField; field: FieldView; fallback: string | null }) {
  const { t } = useTranslation("profile");
  return (
    <SelectField
      field={field}
      label={t(`fields.${name}`)}
      fallback={fallback ?? ""}
      placeholder={t("fields.notSpecified")}
      options={profileChoices[name].map((value) => ({ value, label: t(`choices.${name}.${value}`) }))}
    />
  );
}
