import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useRootData } from "~/utils/root-data";
import { Modal } from "~/components/ui/modal";

type Props = {
  /** The member matched with, and their photo's address (null: their initial). */
  member: { name: string; photo: string | null };
  /** Where the close link leads without JavaScript (the page without its ?match). */
  closeHref: string;
  onClose: () => void;
  /** The ways on: the caller's links (discovery: view profile, keep going; a profile: send a message, keep browsing). */
  children: ReactNode;
};

/**
 * The one "It's a match!" dialog, of discovery (app/features/discovery/discovery-page.tsx) and of a member's page
 * (app/features/discovery/match-modal.tsx): both photos and names, and the caller's ways on. docs/product.md §4 Match modal:
 * "it closes on click anywhere, except clicks on the photo and buttons" (and with Escape or its close link).
 */
export function MatchDialog({ member, closeHref, onClose, children }: Props) {
  const { t } = useTranslation("likes");
  const me = useRootData()?.user;
  return (
    <Modal
      title={t("matchModal.title")}
      titleClassName="text-2xl font-bold text-primary"
      onClose={onClose}
      closeOnClick="outside-controls"
      closeLabel={t("matchModal.close")}
      closeHref={closeHref}
      closeTestId="match-modal-close"
      className="p-6 text-center"
      testId="match-modal"
    >
      <div className="mt-5 flex items-center justify-center -space-x-4">
        {me ? <MatchPhoto src={me.thumbnail} name={me.name} /> : null}
        <MatchPhoto src={member.photo} name={member.name} />
      </div>
      <p className="mt-4 text-gray-700">{t("matchModal.text", { name: member.name })}</p>
      <div className="mt-6 flex flex-col gap-2">{children}</div>
    </Modal>
  );
}

/** A round photo (or the initial) in the match dialog; clicking it does not close the dialog (data-photo). */
function MatchPhoto({ src, name }: { src: string | null; name: string }) {
  const frame = "h-28 w-28 rounded-full bg-gray-100 object-cover ring-4 ring-white";
  return src ? (
    <img src={src} alt={name} width={112} height={112} className={frame} data-photo data-testid="match-photo" />
  ) : (
    <span role="img" aria-label={name} className={`${frame} flex items-center justify-center text-4xl font-semibold text-gray-400`} data-photo data-testid="match-photo">
      {name.slice(0, 1).toUpperCase()}
    </span>
  );
}
