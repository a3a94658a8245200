import { Link } from "@remix-run/react";
import { useState, type ReactNode } from "react";
import { setSignupModalOpen, useSignupModalOpen } from "~/features/signup/signup-modal-state";
import { useRootData } from "~/utils/root-data";
import { whenShown } from "~/utils/when-shown";

// The dialog and its form (conform, zod, the e-mail spell checker) load when the modal first opens, not with every page.
const SignupDialog = whenShown("SignupDialog", () => import("./signup-dialog").then((module) => module.SignupDialog));

/**
 * A link to /signup. With JavaScript it opens the signup modal instead, where the site allows
 * signing up directly; without it (or on invite-only sites) it is a plain link to the page.
 */
export function SignupLink({ className, children }: { className?: string; children: ReactNode }) {
  const root = useRootData();
  return (
    <Link
      to="/signup"
      className={className}
      onClick={(event) => {
        if (root?.signup.gate !== "open") return;
        event.preventDefault();
        setSignupModalOpen(true);
      }}
    >
      {children}
    </Link>
  );
}

/**
 * The signup modal of visitors' pages: nothing until a signup link first opens it (it only opens with
 * JavaScript), then the dialog, which stays mounted so that it can be opened again at once.
 */
export function SignupModal() {
  const open = useSignupModalOpen();
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open ? <SignupDialog /> : null;
}
