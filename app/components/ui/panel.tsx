/** A titled white card of a settings page (/profile, /profile/account). */
export function Panel({ title, testId, children }: { title: string; testId: string; children: React.ReactNode }) {
  return (
    <section aria-label={title} className="space-y-4 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-gray-100" data-testid={testId}>
      <h2 className="text-lg font-semibold text-gray-900">{title}</h2>
      {children}
    </section>
  );
}
