import { useEffect, useRef, useState } from "react";
import { Form, useLocation, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { photoMaxMegabytes, photoUploadField } from "#contract/photo-limits";
import { FormAlert, SubmitButton } from "~/components/ui/form-fields";

/**
 * The photo upload form of /profile/photos and signup step 2: a plain multipart post to the page's
 * own action, which forwards the file to the api. With JavaScript it shows a preview of the chosen
 * photo and "Uploading…" on the button while the file goes up.
 */
export function PhotoUploadForm({ error }: { error?: string | null }) {
  // A new location after each upload: the form mounts again, with no file chosen and no preview.
  const { key } = useLocation();
  return <UploadForm key={key} error={error ?? null} />;
}

function UploadForm({ error }: { error: string | null }) {
  const { t } = useTranslation("photos");
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formEncType === "multipart/form-data";
  const [preview, setPreview] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  function choose() {
    const file = input.current?.files?.[0];
    // Most browsers cannot show HEIC: no preview rather than a broken one (the api still takes it).
    setPreview(file && file.type.startsWith("image/") && !/hei[cf]/.test(file.type) ? URL.createObjectURL(file) : null);
  }
  // A photo chosen while the page's code was still loading (a slow phone) gets its preview once it is here.
  useEffect(() => {
    if (input.current?.files?.length) choose();
  }, []);

  return (
    <Form method="post" encType="multipart/form-data" className="space-y-3" data-testid="photo-upload-form">
      {error ? <FormAlert id="photo-upload-error">{error}</FormAlert> : null}
      <div>
        <label htmlFor="photo-upload-file" className="block text-sm font-medium text-gray-700">
          {t("upload.label")}
        </label>
        <input
          id="photo-upload-file"
          type="file"
          name={photoUploadField}
          accept="image/*"
          required
          ref={input}
          onChange={choose}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "photo-upload-error photo-upload-hint" : "photo-upload-hint"}
          className="mt-1 block w-full text-sm text-gray-700 file:mr-3 file:rounded-full file:border-0 file:bg-primary-light file:px-4 file:py-2 file:font-semibold file:text-primary-dark hover:file:bg-primary/20"
        />
        <p id="photo-upload-hint" className="mt-1 text-xs text-gray-500">
          {t("upload.hint", { megabytes: photoMaxMegabytes })}
        </p>
      </div>
      {preview ? <img src={preview} alt={t("upload.previewAlt")} className="h-32 w-32 rounded-lg bg-gray-100 object-cover" data-testid="photo-preview" /> : null}
      <SubmitButton busy={busy} busyText={t("upload.uploading")}>
        {t("upload.submit")}
      </SubmitButton>
    </Form>
  );
}
