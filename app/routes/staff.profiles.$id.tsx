import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { apiFor } from "~/utils/api.server";
import { pageMeta } from "~/utils/page-title";
import { staffTexts } from "~/features/staff/staff-texts.server";
import { requireStaff, staffRouteId } from "~/features/staff/staff-api.server";
import { formNumber, formText, staffWrite } from "~/features/staff/staff-write.server";
import { fill, staffField } from "~/features/staff/staff-format";
import { StaffCard } from "~/features/staff/staff-parts";
import { ProfileFields, profileBody } from "~/features/staff/profile-fields";
import { forwardPhotoUpload, isMultipart } from "~/features/account/photo-upload.server";
import { Button } from "~/components/ui/button";
import { FormAlert } from "~/components/ui/form-fields";
import { Notice } from "~/components/ui/notice";
import { endpoints } from "#contract/endpoints/index";
import { StaffErrorBoundary } from "~/features/staff/staff-error";

/** One site-run profile (admins): its fields, its photos (upload, delete), disable and enable. */

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const id = staffRouteId(params);
  const texts = staffTexts().profiles;
  const result = await apiFor(request, context).call(endpoints.siteRunProfile, { query: { id } });
  if (!result.ok) throw new Response(null, { status: result.status === 400 ? 404 : result.status });
  return { title: fill(texts.detail.metaTitle, { name: result.data.name }), description: texts.lead, texts, profile: result.data, done: new URL(request.url).searchParams.get("done") === "1" };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const id = staffRouteId(params);
  if (isMultipart(request)) {
    const outcome = await forwardPhotoUpload(request, context, "en", { endpoint: endpoints.uploadSiteRunProfilePhoto, id });
    if (!outcome.ok) return data({ intent: "upload", error: outcome.error }, { status: outcome.status });
    throw redirect(`/staff/profiles/${id}?done=1`);
  }
  const form = await request.formData();
  const intent = formText(form, "intent");
  const body =
    intent === "update" ? { action: "update", id, ...profileBody(form) } : intent === "delete_photo" ? { action: "delete_photo", id, photo_id: formNumber(form, "photo_id") } : intent === "disable" || intent === "enable" ? { action: intent, id } : null;
  if (!body) throw data(null, { status: 400 });
  const result = await staffWrite(request, context, endpoints.changeSiteRunProfile, body);
  if (!result.ok) return data({ intent, error: result.message }, { status: result.status });
  throw redirect(`/staff/profiles/${id}?done=1`);
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function StaffProfile() {
  const { texts, profile, done } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const d = texts.detail;
  const error = (intent: string) => (failed && failed.intent === intent ? <FormAlert>{failed.error}</FormAlert> : null);
  return (
    <>
      <p>
        <Link to="/staff/profiles" className="text-sm">
          ← {d.back}
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-bold text-gray-900">
        {profile.name} <span className="text-base font-normal text-gray-600">· {profile.site.name} · {profile.active ? texts.active : texts.disabled}</span>
      </h1>
      {done ? (
        <div className="mt-3">
          <Notice testId="staff-profile-done">{d.done}</Notice>
        </div>
      ) : null}
      <div className="mt-4 grid gap-4 lg:grid-cols-2">
        <StaffCard title={d.edit}>
          <Form method="post" className="grid gap-3 sm:grid-cols-2">
            <input type="hidden" name="intent" value="update" />
            <ProfileFields texts={texts} profile={profile} />
            <div className="sm:col-span-2">
              <Button size="md" disabled={busy}>
                {texts.save}
              </Button>
            </div>
          </Form>
          {error("update")}
          <Form method="post" className="mt-3">
            <input type="hidden" name="intent" value={profile.active ? "disable" : "enable"} />
            <Button size="sm" variant={profile.active ? "danger" : "neutral"} disabled={busy}>
              {profile.active ? d.disable : d.enable}
            </Button>
          </Form>
        </StaffCard>
        <StaffCard title={d.photos}>
          {profile.photos.length === 0 ? (
            <p className="text-sm text-gray-700">{d.noPhotos}</p>
          ) : (
            <ul className="grid grid-cols-3 gap-3" data-testid="staff-profile-photos">
              {profile.photos.map((photo) => (
                <li key={photo.id}>
                  <img src={photo.thumb_url} alt={`${profile.name} ${photo.id}`} width={120} height={120} className="aspect-square w-full rounded-md object-cover" />
                  <Form method="post" className="mt-1">
                    <input type="hidden" name="intent" value="delete_photo" />
                    <input type="hidden" name="photo_id" value={photo.id} />
                    <Button size="sm" variant="neutral" disabled={busy} aria-label={`${d.deletePhoto} ${photo.id}`}>
                      {d.deletePhoto}
                    </Button>
                  </Form>
                </li>
              ))}
            </ul>
          )}
          {error("delete_photo")}
          <Form method="post" encType="multipart/form-data" className="mt-4 flex flex-wrap items-end gap-3">
            <div>
              <label htmlFor="profile-photo" className="block text-sm font-medium text-gray-700">
                {d.upload}
              </label>
              <input id="profile-photo" name="photo" type="file" accept="image/*" required className={staffField} />
            </div>
            <Button size="md" disabled={busy}>
              {d.uploadSubmit}
            </Button>
          </Form>
          {error("upload")}
        </StaffCard>
      </div>
    </>
  );
}

export function ErrorBoundary() {
  return <StaffErrorBoundary />;
}
