import { Link, type LinkProps } from "@remix-run/react";
import { forwardRef, type AnchorHTMLAttributes, type ButtonHTMLAttributes } from "react";

/**
 * The one button part (docs/ui.md): a `<button>` (Button), a Remix link (ButtonLink) or a plain `<a>` (ButtonAnchor)
 * that look like a button. Its class string is written here once: screens pick a variant and a size, never
 * classes of their own for the button's colour or shape (layout classes such as margins go in className).
 */
export type ButtonVariant = "primary" | "secondary" | "neutral" | "danger";
export type ButtonSize = "sm" | "md" | "lg" | "xl";
export type ButtonStyle = { variant?: ButtonVariant; size?: ButtonSize; block?: boolean; className?: string };

const base =
  "inline-flex items-center justify-center gap-2 rounded-full text-center font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary disabled:cursor-not-allowed disabled:opacity-60";

const variants: Record<ButtonVariant, string> = {
  primary: "bg-primary text-white hover:bg-primary-dark hover:text-white",
  secondary: "bg-white text-primary ring-1 ring-primary hover:bg-primary-light hover:text-primary",
  neutral: "bg-white text-gray-700 ring-1 ring-gray-200 hover:bg-gray-50 hover:text-gray-900",
  danger: "bg-danger text-white hover:opacity-90 hover:text-white",
};

const sizes: Record<ButtonSize, string> = {
  sm: "px-4 py-1.5 text-sm",
  md: "px-5 py-2",
  lg: "px-6 py-2.5",
  xl: "px-6 py-3",
};

/** The class string of a button-looking element, for parts that take a className (e.g. a SignupLink). */
export function buttonClass({ variant = "primary", size = "lg", block = false, className }: ButtonStyle = {}): string {
  return [base, variants[variant], sizes[size], block ? "w-full" : "", className ?? ""].filter(Boolean).join(" ");
}

type ButtonProps = ButtonStyle & Omit<ButtonHTMLAttributes<HTMLButtonElement>, "className"> & { type?: "submit" | "button" | "reset" };

/** A `<button>`, type "submit" unless said otherwise (name and value go to the Remix form as usual). */
export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button({ variant, size, block, className, type = "submit", ...props }, ref) {
  return <button ref={ref} type={type} className={buttonClass({ variant, size, block, className })} {...props} />;
});

type ButtonLinkProps = ButtonStyle & Omit<LinkProps, "className">;

/** A Remix Link that looks like a button. */
export const ButtonLink = forwardRef<HTMLAnchorElement, ButtonLinkProps>(function ButtonLink({ variant, size, block, className, ...props }, ref) {
  return <Link ref={ref} className={buttonClass({ variant, size, block, className })} {...props} />;
});

type ButtonAnchorProps = ButtonStyle & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "className">;

/** A plain `<a>` that looks like a button (an address outside the app, a download, a full page load). */
export const ButtonAnchor = forwardRef<HTMLAnchorElement, ButtonAnchorProps>(function ButtonAnchor({ variant, size, block, className, ...props }, ref) {
  return <a ref={ref} className={buttonClass({ variant, size, block, className })} {...props} />;
});
