import { Form, useActionData, useNavigate } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ChatRefusal } from "./chat-refusal";
import { IcebreakerList, keyFor } from "./chat-icebreakers";
import { Button } from "~/components/ui/button";
import { Modal } from "~/components/ui/modal";
import { giftIds, giftImagePath, giftImageSide, chatImageField } from "#contract/gifts";
import { photoMaxMegabytes } from "#contract/photo-limits";
import type { ChatPageData, ExtrasPanel, SendActionData } from "~/features/chat/chat.server";

type Open = NonNullable<ChatPageData["open"]>;

/*
 * The chat extras' pickers, loaded when a page shows one (whenShown): gifts, pickup lines, GIF search and the photo
 * form. Each choice is a plain form posting to the chat page (intent=send with kind and body, or the multipart
 * photo form), so every one works without JavaScript; with it, the same forms submit and the page updates.
 * Each form carries a fresh idempotency key: a resent form sends (and charges) once.
 */

const choiceButton = "flex flex-col items-center gap-1 rounded-xl p-2 text-xs text-gray-700 ring-1 ring-gray-200 hover:bg-rose-50 hover:ring-primary focus:outline-none focus-visible:ring-2 focus-visible:ring-primary";

function SendForm({ open, sendKey, kind, body, children, label, testId }: { open: Open; sendKey: string; kind: string; body: string; children: React.ReactNode; label: string; testId: string }) {
  return (
    <Form method="post" preventScrollReset={false}>
      <input type="hidden" name="intent" value="send" />
      <input type="hidden" name="to" value={open.profile.id} />
      <input type="hidden" name="key" value={sendKey} />
      <input type="hidden" name="kind" value={kind} />
      <input type="hidden" name="body" value={body} />
      <button type="submit" className={`${choiceButton} w-full`} aria-label={label} data-testid={testId}>
        {children}
      </button>
    </Form>
  );
}


export function ExtrasPanelView({ open, page, extras, closeTo }: { open: Open; page: ChatPageData; extras: ExtrasPanel; closeTo: string }) {
  const { t } = useTranslation("chat");
  const navigate = useNavigate();
  // A refused pick (not enough credits, not an image, too large) is said here, where the member is looking.
  const answer = useActionData<SendActionData | null>();
  const refused = answer && !answer.ok ? answer : null;
  const title =
    extras.panel === "gift" ? t("extras.giftTitle", { name: open.profile.name }) : extras.panel === "icebreakers" ? t("extras.icebreakersTitle", { name: open.profile.name }) : extras.panel === "gif" ? t("extras.gifTitle") : t("extras.imageTitle");
  const price =
    extras.panel === "gift" ? t("extras.giftCost", { count: open.gift_credits }) : extras.panel === "image" ? t("extras.imageCost", { count: open.photo_credits }) : t("composer.cost", { count: open.message_credits });
  return (
    <Modal
      title={title}
      titleClassName="text-lg font-semibold text-gray-900"
      onClose={() => navigate(closeTo, { preventScrollReset: true })}
      closeLabel={t("extras.close")}
      closeHref={closeTo}
      closeTestId="chat-extras-close"
      size="lg"
      placement="bottom"
      backdropClassName="bg-black/40"
      className="max-h-[85vh] overflow-y-auto p-4"
      testId={`chat-extras-${extras.panel}`}
    >
      <p className="mb-3 text-sm text-gray-600" data-testid="chat-extras-price">
        {price} · {t("composer.balance", { count: open.credits })}
      </p>
      {refused ? <ChatRefusal refused={refused} className="mb-3 rounded-lg bg-red-50 p-3 text-sm text-danger" testId="chat-extras-error" /> : null}
      {extras.panel === "gift" ? <GiftGrid open={open} sendKey={page.sendKey} /> : null}
      {extras.panel === "icebreakers" ? <IcebreakerList open={open} sendKey={page.sendKey} lines={page.icebreakers ?? []} /> : null}
      {extras.panel === "gif" ? <GifSearch open={open} sendKey={page.sendKey} extras={extras} /> : null}
      {extras.panel === "image" ? <ImageForm open={open} sendKey={page.sendKey} /> : null}
    </Modal>
  );
}

function GiftGrid({ open, sendKey }: { open: Open; sendKey: string }) {
  const { t } = useTranslation("chat");
  return (
    <ul className="grid grid-cols-3 gap-2 sm:grid-cols-4" data-testid="gift-list">
      {giftIds.map((gift, i) => (
        <li key={gift}>
          <SendForm open={open} sendKey={keyFor(sendKey, i)} kind="gift" body={gift} label={t("extras.sendGift", { gift: t(`gifts.${gift}`), name: open.profile.name })} testId={`gift-${gift}`}>
            <img src={giftImagePath(gift)} width={giftImageSide / 1.5} height={giftImageSide / 1.5} alt="" loading="lazy" />
            <span>{t(`gifts.${gift}`)}</span>
          </SendForm>
        </li>
      ))}
    </ul>
  );
}

function GifSearch({ open, sendKey, extras }: { open: Open; sendKey: string; extras: Extract<ExtrasPanel, { panel: "gif" }> }) {
  const { t } = useTranslation("chat");
  return (
    <>
      <Form method="get" className="mb-3 flex gap-2" role="search">
        <label className="sr-only" htmlFor="gif-q">
          {t("extras.gifSearch")}
        </label>
        <input id="gif-q" name="gif" type="search" defaultValue={extras.q} maxLength={50} required placeholder={t("extras.gifPlaceholder")} className="min-w-0 flex-1 rounded-full border border-gray-300 px-4 py-2 focus:border-primary focus:outline-none" data-testid="gif-query" />
        <Button size="md" data-testid="gif-search">
          {t("extras.gifSearchButton")}
        </Button>
      </Form>
      {extras.gifs && extras.gifs.length === 0 ? (
        <p className="text-sm text-gray-600" data-testid="gif-none">
          {t("extras.gifNone", { q: extras.q })}
        </p>
      ) : null}
      {extras.gifs && extras.gifs.length > 0 ? (
        <ul className="grid grid-cols-3 gap-2 sm:grid-cols-4" data-testid="gif-list">
          {extras.gifs.map((gif, i) => (
            <li key={gif.id}>
              <SendForm open={open} sendKey={keyFor(sendKey, 200 + i)} kind="gif" body={gif.id} label={t("extras.sendGif", { label: gif.label })} testId="gif-result">
                <img src={gif.thumb_url} width={Math.min(gif.width, 120)} height={Math.round((Math.min(gif.width, 120) * gif.height) / Math.max(gif.width, 1))} alt={gif.label} loading="lazy" className="rounded-lg" />
              </SendForm>
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

function ImageForm({ open, sendKey }: { open: Open; sendKey: string }) {
  const { t } = useTranslation("chat");
  return (
    <Form method="post" encType="multipart/form-data" className="flex flex-col gap-3" data-testid="image-form">
      <input type="hidden" name="intent" value="image" />
      <input type="hidden" name="to" value={open.profile.id} />
      <input type="hidden" name="key" value={sendKey} />
      <label className="text-sm text-gray-700" htmlFor="chat-image">
        {t("extras.imageChoose", { megabytes: photoMaxMegabytes })}
      </label>
      <input id="chat-image" name={chatImageField} type="file" accept="image/jpeg,image/png,image/webp,image/heic,image/heif,image/avif" required data-testid="image-file" />
      <Button size="md" className="self-start" data-testid="image-send">
        {t("extras.imageSend")}
      </Button>
    </Form>
  );
}
