import { useEffect, useRef, type MouseEvent } from "react";
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useHref } from "./root-data";

type Props = { profileId: number; name: string; photo: string | null; me: { name: string; thumbnail: string | null }; closeHref: string; onClose: () => void };

/** The match modal's dialog (see MatchModal, which decides when it is open). */
export function MatchDialog({ profileId, name, photo, me, closeHref, onClose }: Props) {
  const { t } = useTranslation("likes");
  const href = useHref();
  const dialog = useRef<HTMLDivElement>(null);

  useEffect(() => {
    dialog.current?.focus();
  }, []);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") onClose();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  });

  const onClickAnywhere = (event: MouseEvent) => {
    if (event.target instanceof Element && event.target.closest("[data-photo], a, button")) return;
    onClose();
  };

  return (
    // A pointer convenience: keyboard users close with Escape or the close link.
    <div className="fixed inset-0 z-50 flex items-center justify-center bg-black/60 p-4" onClick={onClickAnywhere} data-testid="match-modal-backdrop">
      <div
        ref={dialog}
        role="dialog"
        aria-modal="true"
        aria-labelledby="match-modal-title"
        tabIndex={-1}
        className="relative w-full max-w-sm rounded-2xl bg-white p-6 text-center shadow-xl outline-none"
        data-testid="match-modal"
      >
        <Link
          to={closeHref}
          replace
          preventScrollReset
          onClick={(event) => {
            event.preventDefault();
            onClose();
          }}
          aria-label={t("matchModal.close")}
          className="absolute right-3 top-2 text-2xl leading-none text-gray-500 hover:text-gray-700"
          data-testid="match-modal-close"
        >
          ×
        </Link>
        <h2 id="match-modal-title" className="text-2xl font-bold text-primary">
          {t("matchModal.title")}
        </h2>
        <div className="mt-5 flex items-center justify-center -space-x-4">
          <MatchPhoto src={me.thumbnail} name={me.name} />
          <MatchPhoto src={photo} name={name} />
        </div>
        <p className="mt-4 text-gray-700">{t("matchModal.text", { name })}</p>
        <div className="mt-6 flex flex-col gap-2">
          <Link to={href(`/members/${profileId}/chat`)} className="rounded-full bg-primary px-5 py-2 font-semibold text-white hover:bg-primary-dark hover:text-white">
            {t("matchModal.sendMessage")}
          </Link>
          <Link to={href("/members")} className="rounded-full px-5 py-2 font-semibold text-primary ring-1 ring-primary hover:bg-primary-light">
            {t("matchModal.keepBrowsing")}
          </Link>
        </div>
      </div>
    </div>
  );
}

function MatchPhoto({ src, name }: { src: string | null; name: string }) {
  const frame = "h-24 w-24 rounded-full bg-gray-100 object-cover ring-4 ring-white";
  return src ? (
    <img src={src} alt={name} width={96} height={96} className={frame} data-photo data-testid="match-photo" />
  ) : (
    <span role="img" aria-label={name} className={`${frame} flex items-center justify-center text-3xl font-semibold text-gray-500`} data-photo data-testid="match-photo">
      {name.slice(0, 1).toUpperCase()}
    </span>
  );
}
