import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PhotosResponse, type OwnPhoto } from "#contract/photos";
import { photoLimits } from "#contract/photo-limits";
import { apiFor, serviceUnavailable } from "~/utils/api.server";
import { apiErrorMessage } from "~/utils/api-errors";
import { fixedT, metaDescription } from "~/utils/i18n.server";
import { urlLocale } from "~/utils/locale.server";
import { forwardPhotoUpload, isMultipart, PhotoAction } from "~/features/account/photo-upload.server";
import { getSettings, requireUser } from "~/utils/session.server";
import { Notice } from "~/features/account/account-ui";
import { FormAlert } from "~/components/ui/form-fields";
import { PhotoUploadForm } from "~/features/account/photo-upload-form";
import { pageMeta } from "~/utils/page-title";
import { Button } from "~/components/ui/button";

const doneKinds = ["uploaded", "main", "deleted"] as const;
type Done = (typeof doneKinds)[number];

/** Which form failed (its message shows by that form) and why, in the page's language. */
type ActionData = { form: "upload" | "photo"; error: string };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const locale = urlLocale(request);
  const user = await requireUser(request, context);
  const settings = await getSettings(request, context);
  const result = await apiFor(request, context).get("/api/photos.php", PhotosResponse);
  if (!result.ok) throw serviceUnavailable();
  const search = new URL(request.url).searchParams;
  const done = doneKinds.find((kind) => kind === search.get("done")) ?? null;
  // Delete is two steps: ?delete=<id> shows the confirmation (no JavaScript needed), its form deletes.
  const confirmId = Number(search.get("delete"));
  return {
    ...result.data,
    paidUser: user.paid_user,
    cdn: settings.cdn_prefix,
    done,
    confirm: result.data.photos.find((p) => p.id === confirmId) ?? null,
    title: fixedT(locale, "photos")("page.metaTitle", { site: settings.name }),
    description: metaDescription(locale, "photos"),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const locale = urlLocale(request);
  await requireUser(request, context);
  const page = "/profile/photos";
  const done = (kind: Done) => redirect(`${page}?done=${kind}`);

  if (isMultipart(request)) {
    const outcome = await forwardPhotoUpload(request, context, locale);
    if (outcome.ok) throw done("uploaded");
    return data<ActionData>({ form: "upload", error: outcome.error }, { status: outcome.status });
  }

  const parsed = PhotoAction.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) throw data(null, { status: 400 });
  const { intent, id } = parsed.data;
  const api = apiFor(request, context);
  const result = intent === "main" ? await api.put("/api/photo.php", PhotosResponse, { id, main: true }) : await api.delete("/api/photo.php", PhotosResponse, { id });
  if (result.ok) throw done(intent === "main" ? "main" : "deleted");
  // A photo deleted meanwhile (another tab): the page simply shows what there is now.
  if (result.error.error === "not_found") throw redirect(page);
  return data<ActionData>({ form: "photo", error: apiErrorMessage(fixedT(locale), result.error) }, { status: result.status });
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

/** The member's own photos, with upload, main photo and delete; every form works without JavaScript. */
export default function ProfilePhotos() {
  const { t } = useTranslation("photos");
  const { photos, count, limit, paidUser, done, confirm } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <section className="container max-w-3xl py-8" data-testid="profile-photos">
      <h1 className="text-2xl font-bold text-gray-900">{t("page.title")}</h1>
      <p className="mt-1 text-gray-600">{t("page.lead")}</p>
      <p className="mt-3 text-sm font-medium text-gray-700" data-testid="photo-count">
        {t("page.count", { used: count, limit })}
      </p>
      <div className="mt-4 space-y-4">
        {done ? <Notice>{t(`page.done.${done}`)}</Notice> : null}
        {actionData?.form === "photo" ? <FormAlert>{actionData.error}</FormAlert> : null}
        {confirm ? <ConfirmDelete photo={confirm} /> : null}
        <RejectedNotices />
        {photos.some((photo) => photo.status === "pending") ? <p className="text-sm text-gray-600">{t("review.pendingHint")}</p> : null}
        {photos.length === 0 ? (
          <p className="rounded-2xl bg-white p-6 text-gray-600 shadow-sm ring-1 ring-gray-100" data-testid="photos-empty">
            {t("page.empty")}
          </p>
        ) : (
          <PhotoGrid />
        )}
        <section className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-gray-100" data-testid="photo-upload">
          {count < limit ? <PhotoUploadForm error={actionData?.form === "upload" ? actionData.error : null} /> : paidUser ? <LimitReached limit={limit} /> : <PremiumNeeded />}
        </section>
      </div>
    </section>
  );
}

function PhotoGrid() {
  const { t } = useTranslation("photos");
  const { photos, cdn } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  return (
    <ul className="grid grid-cols-2 gap-4 sm:grid-cols-3" data-testid="own-photos">
      {photos.map((photo, index) => (
        <li key={photo.id} className="overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-gray-100" data-testid="own-photo">
          <div className="relative">
            <img src={cdn + photo.thumb_filename} alt={t("page.photoAlt", { number: index + 1 })} width={320} height={320} className="aspect-square w-full bg-gray-100 object-cover" />
            {photo.main ? (
              <span className="absolute left-2 top-2 rounded-full bg-primary px-2 py-0.5 text-xs font-semibold text-white" data-testid="main-photo">
                {t("page.mainBadge")}
              </span>
            ) : null}
            {photo.status !== "active" ? (
              <span className="absolute bottom-2 left-2 rounded-full bg-gray-900/70 px-2 py-0.5 text-xs text-white" data-testid="photo-pending">
                {t("review.pending")}
              </span>
            ) : null}
          </div>
          <div className="flex items-center justify-between gap-2 p-2 text-sm">
            {!photo.main && photo.status === "active" ? (
              <Form method="post">
                <input type="hidden" name="intent" value="main" />
                <input type="hidden" name="id" value={photo.id} />
                <button type="submit" disabled={busy} className="font-semibold text-primary hover:text-primary-dark disabled:opacity-60">
                  {t("page.makeMain")}
                </button>
              </Form>
            ) : (
              <span />
            )}
            <Link to={`/profile/photos?delete=${photo.id}`} className="text-gray-600 hover:text-danger" preventScrollReset>
              {t("page.delete")}
            </Link>
          </div>
        </li>
      ))}
    </ul>
  );
}

function ConfirmDelete({ photo }: { photo: OwnPhoto }) {
  const { t } = useTranslation("photos");
  const { cdn } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  return (
    <section role="alertdialog" aria-labelledby="confirm-delete-title" className="flex flex-col gap-4 rounded-2xl bg-red-50 p-4 ring-1 ring-red-100 sm:flex-row sm:items-center" data-testid="confirm-delete">
      <img src={cdn + photo.thumb_filename} alt="" width={96} height={96} className="h-24 w-24 rounded-lg bg-gray-100 object-cover" />
      <div className="flex-1">
        <h2 id="confirm-delete-title" className="font-semibold text-gray-900">
          {t("confirmDelete.title")}
        </h2>
        <p className="mt-1 text-sm text-gray-700">{t("confirmDelete.body")}</p>
        <div className="mt-3 flex flex-wrap items-center gap-4">
          <Form method="post">
            <input type="hidden" name="intent" value="delete" />
            <input type="hidden" name="id" value={photo.id} />
            <Button disabled={navigation.state !== "idle"} variant="danger" size="sm">
              {t("confirmDelete.confirm")}
            </Button>
          </Form>
          <Link to="/profile/photos" className="text-sm text-gray-700 hover:text-gray-900">
            {t("confirmDelete.cancel")}
          </Link>
        </div>
      </div>
    </section>
  );
}

/** A free member at the limit: the premium message of docs/product.md §8 instead of the upload form (the api refuses anyway). */
function PremiumNeeded() {
  const { t } = useTranslation("photos");
  const { t: common } = useTranslation();
  return (
    <div className="space-y-2" data-testid="photo-premium">
      <p className="font-semibold text-gray-900">{common("errors.premium_required")}</p>
      <p className="text-sm text-gray-600">{t("page.freeLimit", { free: photoLimits.free, premium: photoLimits.premium })}</p>
      <Link to="/premium" className="inline-block rounded-full bg-secondary px-4 py-2 text-sm font-semibold text-white hover:opacity-90">
        {t("page.premiumLink")}
      </Link>
    </div>
  );
}

function LimitReached({ limit }: { limit: number }) {
  const { t } = useTranslation("photos");
  return (
    <p className="text-gray-700" data-testid="photo-limit">
      {t("page.limitReached", { limit })}
    </p>
  );
}

/** docs/staff.md: a photo a moderator rejected is gone from the grid; its notice says why until the member removes it. */
function RejectedNotices() {
  const { t } = useTranslation("photos");
  const { rejected } = useLoaderData<typeof loader>();
  if (rejected.length === 0) return null;
  return (
    <ul className="space-y-2" data-testid="photo-rejections">
      {rejected.map((notice) => (
        <li key={notice.id} className="flex flex-wrap items-center justify-between gap-3 rounded-xl bg-amber-50 p-4 text-amber-900 ring-1 ring-amber-200" role="status">
          <span>{t("review.rejected", { reason: t(`rejection.${notice.reason}`) })}</span>
          <Form method="post" preventScrollReset>
            <input type="hidden" name="intent" value="delete" />
            <input type="hidden" name="id" value={notice.id} />
            <Button variant="neutral" size="sm">
              {t("review.dismiss")}
            </Button>
          </Form>
        </li>
      ))}
    </ul>
  );
}
