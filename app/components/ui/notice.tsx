import type { ReactNode } from "react";

/** A confirmation after a completed step ("check your e-mail", "password changed"). */
export function Notice({ children, testId = "notice" }: { children: ReactNode; testId?: string }) {
  return (
    <div role="status" className="rounded-md bg-green-50 px-3 py-2 text-sm text-green-800" data-testid={testId}>
      {children}
    </div>
  );
}
