import type { SiteRunProfile } from "#contract/staff-profiles";
import { staffField } from "./staff-format";

type Texts = { name: string; gender: string; male: string; female: string; born: string; country: string; city: string; about: string };

/** The fields of a site-run profile (the create and the edit form share them). */
export function ProfileFields({ texts, profile }: { texts: Texts; profile?: SiteRunProfile }) {
  const field = (id: string, label: string, input: React.ReactNode) => (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-gray-700">
        {label}
      </label>
      {input}
    </div>
  );
  return (
    <>
      {field("profile-name", texts.name, <input id="profile-name" name="name" required minLength={2} maxLength={40} defaultValue={profile?.name} className={staffField} />)}
      {field(
        "profile-gender",
        texts.gender,
        <select id="profile-gender" name="gender" defaultValue={profile?.gender ?? "female"} className={staffField}>
          <option value="female">{texts.female}</option>
          <option value="male">{texts.male}</option>
        </select>,
      )}
      {field("profile-born", texts.born, <input id="profile-born" name="date_of_birth" type="date" required defaultValue={profile?.date_of_birth} className={staffField} />)}
      {field("profile-country", texts.country, <input id="profile-country" name="country" required maxLength={2} defaultValue={profile?.country ?? "NL"} className={staffField} />)}
      {field("profile-city", texts.city, <input id="profile-city" name="city" maxLength={80} defaultValue={profile?.city ?? ""} className={staffField} />)}
      <div className="sm:col-span-2">
        <label htmlFor="profile-about" className="block text-sm font-medium text-gray-700">
          {texts.about}
        </label>
        <textarea id="profile-about" name="about_me" rows={4} maxLength={2000} defaultValue={profile?.about_me ?? ""} className={staffField} />
      </div>
    </>
  );
}

/** The body of a create or update from the form (the api validates it). */
export function profileBody(form: FormData): Record<string, unknown> {
  const text = (name: string) => String(form.get(name) ?? "").trim();
  return { name: text("name"), gender: text("gender"), date_of_birth: text("date_of_birth"), country: text("country").toUpperCase(), city: text("city") || null, about_me: text("about_me") };
}
