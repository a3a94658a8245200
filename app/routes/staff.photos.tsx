import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { photoRejectionReasons } from "#contract/moderation-reasons";
import { queueCountText } from "#contract/queue-count";
import { apiFor } from "~/utils/api.server";
import { pageMeta } from "~/utils/page-title";
import { staffTexts } from "~/features/staff/staff-texts.server";
import { requireStaff } from "~/features/staff/staff-api.server";
import { staffWrite } from "~/features/staff/staff-write.server";
import { fill, staffField, utcMinute } from "~/features/staff/staff-format";
import { Button } from "~/components/ui/button";
import { FormAlert } from "~/components/ui/form-fields";
import { PlainSelect } from "~/components/ui/choice-fields";
import { Notice } from "~/components/ui/notice";
import { endpoints } from "#contract/endpoints/index";
import { StaffErrorBoundary } from "~/features/staff/staff-error";

/**
 * The photo queue (moderators and admins). One form: approve or reject one photo by its own buttons,
 * or the selected ones at once; a card's Reject takes the reason chosen on the card, else the one at the top. Works
 * without JavaScript; with it, keyboard shortcuts from the page's load (J/K move, X selects, A approves, R rejects: on
 * the focused card, else the first), focus moving to the next card after a decision.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const texts = staffTexts();
  const result = await apiFor(request, context).call(endpoints.staffPhotoQueue);
  if (!result.ok) throw new Response(null, { status: result.status });
  const url = new URL(request.url);
  const approved = Number(url.searchParams.get("approved") ?? -1);
  const rejected = Number(url.searchParams.get("rejected") ?? -1);
  const done =
    approved > 0 ? fill(texts.photos.done.approved, { count: approved }) : rejected > 0 ? fill(texts.photos.done.rejected, { count: rejected }) : approved === 0 || rejected === 0 ? texts.photos.done.none : null;
  return { title: texts.photos.metaTitle, description: texts.photos.lead, texts: { ...texts.photos, reasons: texts.reasons.photo }, queue: result.data, done };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const texts = staffTexts().photos;
  const form = await request.formData();
  // "approve" / "reject": the selected photos; "approve:12" / "reject:12": that photo's own button.
  const [decision, one] = String(form.get("intent") ?? "").split(":");
  if (decision !== "approve" && decision !== "reject") throw data(null, { status: 400 });
  const ids = (one ? [one] : form.getAll("ids").map(String)).filter((id) => /^\d{1,9}$/.test(id)).map(Number);
  if (ids.length === 0) return data({ error: texts.noneSelected }, { status: 400 });
  // A card's own Reject takes that card's reason when one is chosen there, else the one at the top.
  const reason = (one ? String(form.get(`reason:${one}`) ?? "") : "") || String(form.get("reason") ?? "");
  const body = decision === "approve" ? { decision, ids } : { decision, ids, reason };
  const result = await staffWrite(request, context, endpoints.reviewPhoto, body);
  if (!result.ok) return data({ error: result.message }, { status: result.status });
  throw redirect(decision === "approve" ? `/staff/photos?approved=${result.data.approved.length}` : `/staff/photos?rejected=${result.data.rejected.length}`);
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(data, matches);

export default function StaffPhotos() {
  const { texts, queue, done } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const formRef = useRef<HTMLFormElement>(null);
  const submit = useSubmit();
  /** The place of the card last decided: after the queue reloads, focus goes to the card now there (the next one). */
  const decidedAt = useRef<number | null>(null);
  useEffect(() => {
    if (decidedAt.current === null || !formRef.current) return;
    const cards = [...formRef.current.querySelectorAll<HTMLElement>("[data-photo-card]")];
    cards[Math.min(decidedAt.current, cards.length - 1)]?.focus();
    decidedAt.current = null;
  }, [queue]);
  // Shortcuts from the page's load: on the focused card, else the first; never while typing in a field or a list.
  useEffect(() => {
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      const form = formRef.current;
      const target = event.target instanceof HTMLElement ? event.target : null;
      if (!form || event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
      if (target && (target.isContentEditable || ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName)) && target.getAttribute("type") !== "checkbox") return;
      const cards = [...form.querySelectorAll<HTMLElement>("[data-photo-card]")];
      const focused = target?.closest<HTMLElement>("[data-photo-card]") ?? null;
      const card = focused ?? cards[0];
      if (!card) return;
      const index = cards.indexOf(card);
      const key = event.key.toLowerCase();
      if (key === "j" || key === "k") (focused ? cards[Math.min(cards.length - 1, Math.max(0, index + (key === "j" ? 1 : -1)))] : card)?.focus();
      else if (key === "x") card.querySelector<HTMLInputElement>("input[type=checkbox]")?.click();
      else if (key === "a" || key === "r") {
        const data = new FormData(form);
        data.set("intent", `${key === "a" ? "approve" : "reject"}:${card.dataset.photoCard}`);
        decidedAt.current = index;
        submit(data, { method: "post", preventScrollReset: true });
      } else return;
      event.preventDefault();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [submit]);
  const cardReasons = [{ value: "", label: texts.reasonAbove }, ...photoRejectionReasons.map((reason) => ({ value: reason, label: texts.reasons[reason] }))];
  return (
    <>
      <h1 className="text-2xl font-bold text-gray-900">{texts.title}</h1>
      <p className="mt-1 max-w-3xl text-sm text-gray-600">{texts.lead}</p>
      <p className="mt-2 text-sm font-semibold text-gray-900" data-testid="staff-photo-count">
        {fill(texts.count, { count: queueCountText(queue.total) })}
      </p>
      <div className="mt-4 space-y-3">
        {done ? <Notice testId="staff-photos-done">{done}</Notice> : null}
        {failed?.error ? <FormAlert>{failed.error}</FormAlert> : null}
      </div>
      {queue.photos.length === 0 ? (
        <p className="mt-6 text-gray-700" data-testid="staff-photos-empty">
          {texts.empty}
        </p>
      ) : (
        <Form method="post" ref={formRef} className="mt-6" aria-describedby="photo-shortcuts">
          <div className="sticky top-0 z-10 flex flex-wrap items-end gap-3 rounded-xl bg-white p-3 ring-1 ring-gray-200">
            <div>
              <label htmlFor="reject-reason" className="block text-sm font-medium text-gray-700">
                {texts.reason}
              </label>
              <select id="reject-reason" name="reason" defaultValue="not_the_member" className={staffField}>
                {photoRejectionReasons.map((reason) => (
                  <option key={reason} value={reason}>
                    {texts.reasons[reason]}
                  </option>
                ))}
              </select>
            </div>
            <Button name="intent" value="approve" size="md" disabled={busy}>
              {texts.approveSelected}
            </Button>
            <Button name="intent" value="reject" size="md" variant="danger" disabled={busy}>
              {texts.rejectSelected}
            </Button>
            <p id="photo-shortcuts" className="basis-full text-xs text-gray-600">
              {texts.shortcuts}
            </p>
          </div>
          <ul className="mt-4 grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4" data-testid="staff-photo-queue">
            {queue.photos.map((photo) => (
              <li
                key={photo.id}
                data-photo-card={photo.id}
                tabIndex={0}
                className="rounded-xl bg-white p-2 ring-1 ring-gray-200 focus:outline-none focus:ring-2 focus:ring-gray-900"
                data-testid="staff-photo"
              >
                <a href={photo.url} target="_blank" rel="noreferrer">
                  <img src={photo.thumb_url} alt={fill(texts.fullSize, { id: photo.id, name: photo.member.name })} width={320} height={320} loading="lazy" className="aspect-square w-full rounded-lg object-cover" />
                </a>
                <p className="mt-2 text-xs text-gray-700">
                  <Link to={`/staff/members/${photo.member.user_id}`} className="font-semibold underline">
                    {fill(texts.by, { name: photo.member.name, site: photo.site.name })}
                  </Link>
                </p>
                <p className="text-xs text-gray-600">{fill(texts.uploaded, { when: utcMinute(photo.created_at) })}</p>
                <p className="text-xs font-medium text-gray-800">{photo.status === "pending" ? texts.pending : texts.live}</p>
                <label className="mt-2 flex items-center gap-2 text-sm text-gray-800">
                  <input type="checkbox" name="ids" value={photo.id} className="h-4 w-4" />
                  {fill(texts.select, { id: photo.id })}
                </label>
                <div className="mt-2">
                  <PlainSelect id={`reason-${photo.id}`} name={`reason:${photo.id}`} label={fill(texts.photoReason, { id: photo.id })} options={cardReasons} small />
                </div>
                <div className="mt-2 flex gap-2">
                  <Button name="intent" value={`approve:${photo.id}`} size="sm" disabled={busy} aria-label={`${texts.approve} ${photo.id}`}>
                    {texts.approve}
                  </Button>
                  <Button name="intent" value={`reject:${photo.id}`} size="sm" variant="danger" disabled={busy} aria-label={`${texts.reject} ${photo.id}`}>
                    {texts.reject}
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        </Form>
      )}
    </>
  );
}

export function ErrorBoundary() {
  return <StaffErrorBoundary />;
}
