import { atom } from "jotai";

/** Whether the signup modal is open (with JavaScript; without it, signup links go to /signup). */
export const signupModalOpenAtom = atom(false);
