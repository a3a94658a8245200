import { Link } from "@remix-run/react";

/** A refused send's message with its way out (buy credits, get premium), as the composer and the extras panels show it. */
export function ChatRefusal({ refused, className, testId }: { refused: { message: string; link?: { to: string; label: string } }; className: string; testId: string }) {
  return (
    <p className={className} role="alert" data-testid={testId}>
      {refused.message}{" "}
      {refused.link ? (
        <Link to={refused.link.to} className="font-semibold">
          {refused.link.label}
        </Link>
      ) : null}
    </p>
  );
}
