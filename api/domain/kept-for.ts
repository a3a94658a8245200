/**
 * A value per key, kept for `ms` in this api instance: figures whose reading takes a day's rows (the staff dashboard's
 * messages of the day and paying members, the operators' figures of yesterday and today), read at most once a minute
 * per instance whoever asks. Requests at once share one reading; a failed one is not kept.
 */
export function keptFor<T>(ms: number) {
  const kept = new Map<string, { until: number; value: Promise<T> }>();
  return {
    get(key: string, read: () => Promise<T>, now = Date.now()): Promise<T> {
      const found = kept.get(key);
      if (found && found.until > now) return found.value;
      const value = read();
      kept.set(key, { until: now + ms, value });
      value.catch(() => kept.delete(key));
      // Keys are few (a staff member's set of sites, a range of days); old ones go when they expire.
      for (const [other, entry] of kept) if (entry.until <= now) kept.delete(other);
      return value;
    },
    /** Forgets every kept value: this instance changed what they count. */
    clear(): void {
      kept.clear();
    },
  };
}
