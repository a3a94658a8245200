import { browserPaths } from "#contract/endpoints/paths";
import type { FieldView } from "~/components/ui/form-view";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { FieldErrors } from "~/components/ui/form-fields";
import { useLocale } from "~/utils/root-data";
import { useHydrated } from "~/utils/hydrated";
import { regionLabelKey } from "#contract/region-kinds";

type Option = { value: string; label: string };

const inputClass =
  "mt-1 block w-full rounded-md border border-gray-300 bg-white px-3 py-2 focus:border-primary focus:outline-none focus:ring-2 focus:ring-primary/30 aria-[invalid]:border-danger";

/** docs/product.md §2 "geolocation button (states: active, error)"; found: the form was filled in. */
type LocateState = { state: "idle" } | { state: "active" } | { state: "found" } | { state: "error"; message: string };

type Props = {
  country: FieldView;
  region: FieldView;
  city: FieldView;
  countries: readonly Option[];
  /** The regions of `regionsCountry` (the country shown when the page was rendered). */
  regions: Option[];
  regionsCountry: string;
  current: { country: string; region: string; city: string };
};

// The answers are parsed with the contract's schemas, which (with zod) load when the member first changes the
// country or asks for their location, not with the page.
async function fetchRegions(country: string): Promise<Option[]> {
  const [response, { RegionsResponse }] = await Promise.all([
    fetch(`${browserPaths.regions}?country=${encodeURIComponent(country)}`, { headers: { Accept: "application/json" } }),
    import("#contract/settings"),
  ]);
  if (!response.ok) throw new Error(`regions ${response.status}`);
  return RegionsResponse.parse(await response.json()).regions.map((r) => ({ value: r.code, label: r.name }));
}


/**
 * The location block of /profile: country, region (the regions of the chosen country) and city, and with
 * JavaScript a "Use my location" button that fills them from the browser's position (GET /api/geocode.php).
 * Without JavaScript the member chooses by hand; "Show the regions" posts the form to list the regions
 * of a newly chosen country (the action answers them without saving).
 */
/** A text field's kept value (after a refused submit), or undefined. */
const initialText = (field: FieldView) => (typeof field.initialValue === "string" ? field.initialValue : undefined);

export function LocationFields({ country, region, city, countries, regions: initialRegions, regionsCountry, current }: Props) {
  const { t } = useTranslation("profile");
  const locale = useLocale();
  const hydrated = useHydrated();
  const [values, setValues] = useState({
    country: initialText(country) ?? current.country,
    region: initialText(region) ?? current.region,
    city: initialText(city) ?? current.city,
  });
  const [regions, setRegions] = useState({ country: regionsCountry, options: initialRegions });
  const [locate, setLocate] = useState<LocateState>({ state: "idle" });
  // Only the latest country's regions may land in the list (a slow answer for an earlier choice is dropped).
  const wantedCountry = useRef(values.country);

  async function showRegionsOf(code: string, then?: string) {
    wantedCountry.current = code;
    const options = await fetchRegions(code).catch(() => [] as Option[]);
    if (wantedCountry.current !== code) return;
    setRegions({ country: code, options });
    const keep = then && options.some((o) => o.value === then) ? then : "";
    setValues((v) => ({ ...v, region: keep }));
  }

  function chooseCountry(code: string) {
    setValues((v) => ({ ...v, country: code, region: "" }));
    void showRegionsOf(code);
  }

  // What the member chose or typed before the page's code ran: hydration keeps it on screen, but React's state still
  // holds the rendered values, and the next render (useHydrated's switch) would set the fields back to them.
  const countryField = useRef<HTMLSelectElement>(null);
  const regionField = useRef<HTMLSelectElement>(null);
  const cityField = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const chosen = countryField.current?.value;
    const typedCity = cityField.current?.value;
    if (typedCity !== undefined && typedCity !== values.city) setValues((v) => ({ ...v, city: typedCity }));
    if (chosen && chosen !== values.country) chooseCountry(chosen);
    else if (regionField.current && regionField.current.value !== values.region) {
      const region = regionField.current.value;
      setValues((v) => ({ ...v, region }));
    }
    // Once, right after hydration: later changes reach the state through the fields' onChange.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  async function locateMe() {
    setLocate({ state: "active" });
    // The geolocation code (and the answer's schema, with zod) loads on the first press, not with the page.
    const located = await import("./profile-geolocate").then(
      ({ locateMember }) => locateMember(countries.map((c) => c.value), locale, t),
      () => ({ found: false as const, message: t("location.failed") }),
    );
    if (!located.found) return setLocate({ state: "error", message: located.message });
    setValues({ country: located.country, region: "", city: located.city });
    await showRegionsOf(located.country, located.region ?? undefined);
    setLocate({ state: "found" });
  }

  const regionOptions = regions.country === values.country ? regions.options : [];
  const storedRegionMissing = current.region !== "" && values.country === current.country && !regionOptions.some((o) => o.value === current.region);
  return (
    <div className="space-y-4" data-testid="location-block" data-state={locate.state}>
      {hydrated ? (
        <div className="space-y-2">
          <button
            type="button"
            onClick={() => void locateMe()}
            disabled={locate.state === "active"}
            aria-describedby="location-status"
            className="inline-flex items-center gap-2 rounded-full border border-primary px-4 py-2 text-sm font-semibold text-primary hover:bg-primary-light disabled:opacity-60"
            data-testid="use-my-location"
          >
            {locate.state === "active" ? t("location.locating") : t("location.useMine")}
          </button>
          <p id="location-status" role="status" aria-live="polite" className={`text-sm ${locate.state === "error" ? "text-danger" : "text-gray-600"}`} data-testid="location-status">
            {locate.state === "error" ? locate.message : locate.state === "found" ? t("location.found") : ""}
          </p>
        </div>
      ) : (
        <p className="text-sm text-gray-600">{t("location.byHand")}</p>
      )}
      <div>
        <label htmlFor={country.id} className="block text-sm font-medium text-gray-700">
          {t("steps.country", { ns: "common" })}
        </label>
        <select
          ref={countryField}
          id={country.id}
          name={country.name}
          value={values.country}
          onChange={(e) => chooseCountry(e.target.value)}
          aria-invalid={country.errors ? true : undefined}
          aria-describedby={country.errors ? country.errorId : undefined}
          className={inputClass}
        >
          {countries.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
        <FieldErrors field={country} />
        {/* Without JavaScript a changed country shows the old regions until the form is posted. */}
        {hydrated ? null : (
          <button type="submit" name="regions" value="1" className="mt-2 text-sm font-semibold text-primary underline" data-testid="update-regions">
            {t("location.updateRegions")}
          </button>
        )}
      </div>
      <div>
        {/* Named as the chosen country names its regions (state, province, canton...). */}
        <label htmlFor={region.id} className="block text-sm font-medium text-gray-700">
          {t(regionLabelKey(values.country))}
        </label>
        <select
          ref={regionField}
          id={region.id}
          name={region.name}
          value={values.region}
          onChange={(e) => setValues((v) => ({ ...v, region: e.target.value }))}
          aria-invalid={region.errors ? true : undefined}
          aria-describedby={region.errors ? region.errorId : undefined}
          className={inputClass}
        >
          <option value="">{t("steps.regionNone", { ns: "common" })}</option>
          {/* The member's stored region missing from the list (the data changed) stays rather than being lost on save. */}
          {storedRegionMissing ? <option value={current.region}>{current.region}</option> : null}
          {regionOptions.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
        <FieldErrors field={region} />
      </div>
      <div>
        <label htmlFor={city.id} className="block text-sm font-medium text-gray-700">
          {t("steps.city", { ns: "common" })}
        </label>
        <input
          ref={cityField}
          id={city.id}
          name={city.name}
          type="text"
          value={values.city}
          onChange={(e) => setValues((v) => ({ ...v, city: e.target.value }))}
          maxLength={100}
          autoComplete="address-level2"
          aria-invalid={city.errors ? true : undefined}
          aria-describedby={city.errors ? city.errorId : undefined}
          className={inputClass}
        />
        <FieldErrors field={city} />
      </div>
    </div>
  );
}
