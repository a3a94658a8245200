import { Link } from "@remix-run/react";
import { useEffect, useId, useLayoutEffect, useRef, type MouseEvent, type ReactNode } from "react";
import { useHydrated } from "~/utils/hydrated";

// useLayoutEffect warns when rendered on the server; the server never runs effects anyway.
const useBrowserLayoutEffect = typeof document === "undefined" ? useEffect : useLayoutEffect;

/** What a click inside the dialog's full-screen layer closes it on. */
export type ModalClickClose = "never" | "backdrop" | "outside-controls";

/** Clicks on these never close an "outside-controls" modal (docs/product.md §4 Match modal: "except clicks on the photo and buttons"). */
const controls = "a, button, input, select, textarea, label, [data-photo]";

type ModalProps = {
  /** The heading (h2): the dialog's accessible name (aria-labelledby). Required: every dialog says what it is. */
  title: ReactNode;
  titleClassName?: string;
  /** Whether it is open (default true: a rendered Modal is an open one). */
  open?: boolean;
  /** Called when the member dismisses it (Escape, a click that closes, the close button). Without it nothing dismisses it. */
  onClose?: () => void;
  /** Escape closes it (default: yes when there is an onClose). */
  closeOnEscape?: boolean;
  /** Which clicks close it (default: a click on the backdrop when there is an onClose). */
  closeOnClick?: ModalClickClose;
  /** The × in the corner: its label. With closeHref it is a link (so it works without JavaScript), otherwise a button. */
  closeLabel?: string;
  closeHref?: string;
  closeDisabled?: boolean;
  closeTestId?: string;
  /** Panel width and where it sits: centred, or at the bottom on small screens (a sheet). */
  size?: "xs" | "sm" | "md" | "lg";
  placement?: "center" | "bottom";
  /** The dimmed layer behind the panel (default bg-black/60). */
  backdropClassName?: string;
  /** An alert that needs an answer (role alertdialog) rather than a dialog. */
  alert?: boolean;
  /** Extra classes of the <dialog> layer itself (e.g. a CSS-only way to hide it without JavaScript). */
  dialogClassName?: string;
  /** Extra panel classes (default padding p-6). */
  className?: string;
  testId?: string;
  busy?: boolean;
  children: ReactNode;
};

const sizes = { xs: "max-w-xs", sm: "max-w-sm", md: "max-w-md", lg: "max-w-lg" };

/** The open modals, innermost last: Escape is the innermost's (a dialog may open over another, e.g. a popup over the signup modal). */
const openModals: HTMLDialogElement[] = [];

/**
 * The one dialog part (docs/ui.md). A native <dialog>: the server renders it open in the page (`<dialog open>`,
 * a full-screen layer that covers the page, so its links and forms work without JavaScript); after hydration
 * it becomes modal with showModal(): the page behind is inert and focus moves into it. When it closes (or
 * unmounts), focus goes back to the element that had it when it opened.
 *
 * The dialog element is the full-screen layer and the panel its child: a click on the layer outside the panel
 * is a click on the dialog itself, with or without showModal().
 */
export function Modal({
  title,
  titleClassName = "text-2xl font-bold text-gray-900",
  open = true,
  onClose,
  closeOnEscape = Boolean(onClose),
  closeOnClick = onClose ? "backdrop" : "never",
  closeLabel,
  closeHref,
  closeDisabled,
  closeTestId,
  size = "sm",
  placement = "center",
  backdropClassName = "bg-black/60",
  className = "p-6",
  alert = false,
  dialogClassName = "",
  testId,
  busy,
  children,
}: ModalProps) {
  const titleId = useId();
  const hydrated = useHydrated();
  const dialog = useRef<HTMLDialogElement>(null);
  // What Escape does now, for the document's keydown listener below.
  const latest = useRef({ closeOnEscape, onClose });
  useBrowserLayoutEffect(() => {
    latest.current = { closeOnEscape, onClose };
  });

  useBrowserLayoutEffect(() => {
    const element = dialog.current;
    if (!element || !hydrated || !open) return;
    const opener = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
    // The server's (or the hydration's) open attribute was removed by this render: open it again, as a modal.
    if (element.open) element.close();
    element.showModal();
    openModals.push(element);
    // Escape is handled here, before the browser's own close request (which a page may refuse only once in a
    // row): also when the focus has left the dialog (e.g. its focused button became disabled).
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.defaultPrevented || openModals[openModals.length - 1] !== element) return;
      event.preventDefault();
      if (latest.current.closeOnEscape) latest.current.onClose?.();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      openModals.splice(openModals.indexOf(element), 1);
      if (element.open) element.close();
      if (opener?.isConnected) opener.focus({ preventScroll: true });
    };
  }, [open, hydrated]);

  const dismiss = () => {
    if (onClose) onClose();
  };

  const onClick = (event: MouseEvent<HTMLDialogElement>) => {
    if (closeOnClick === "never" || !onClose) return;
    if (closeOnClick === "backdrop" && event.target !== event.currentTarget) return;
    if (closeOnClick === "outside-controls" && event.target instanceof Element && event.target.closest(controls)) return;
    dismiss();
  };

  const close = closeLabel ? (
    closeHref ? (
      <Link
        to={closeHref}
        replace
        preventScrollReset
        onClick={(event) => {
          if (!onClose) return;
          event.preventDefault();
          dismiss();
        }}
        aria-label={closeLabel}
        className={closeClass}
        data-testid={closeTestId}
      >
        ×
      </Link>
    ) : (
      <button type="button" onClick={dismiss} disabled={closeDisabled} aria-label={closeLabel} className={closeClass} data-testid={closeTestId}>
        ×
      </button>
    )
  ) : null;

  return (
    <dialog
      ref={dialog}
      // Open in the server's HTML and while hydrating; after that the effect above opens it with showModal().
      open={!hydrated && open}
      role={alert ? "alertdialog" : undefined}
      aria-labelledby={titleId}
      aria-busy={busy || undefined}
      className={`fixed inset-0 z-50 m-0 h-full max-h-none w-full max-w-none justify-center overflow-y-auto backdrop:bg-transparent open:flex ${
        placement === "bottom" ? "items-end sm:items-center sm:p-4" : "items-center p-4"
      } ${backdropClassName} ${dialogClassName}`}
      data-testid={testId}
      onCancel={(event) => {
        event.preventDefault();
        if (closeOnEscape) dismiss();
      }}
      onClose={() => {
        // Closed by the browser although still wanted (a close request that could not be refused): keep it open.
        const element = dialog.current;
        if (!element || element.open || !open || !hydrated) return;
        if (closeOnEscape) dismiss();
        else element.showModal();
      }}
      onClick={onClick}
    >
      <div className={`relative w-full bg-white text-gray-800 shadow-xl ${sizes[size]} ${placement === "bottom" ? "rounded-t-2xl sm:rounded-2xl" : "rounded-2xl"} ${className}`}>
        {close}
        <h2 id={titleId} className={`${titleClassName} ${close ? "pr-8" : ""}`}>
          {title}
        </h2>
        {children}
      </div>
    </dialog>
  );
}

const closeClass = "absolute right-3 top-2 rounded-full px-2 text-2xl leading-none text-gray-400 hover:text-gray-700 disabled:opacity-40";
