/** One sample of Prometheus' text exposition format: `name{label="value",...} 12.5`. */
export type Sample = { name: string; labels: Record<string, string>; value: number };

const sampleLine = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const labelPair = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Every sample of a scrape (comments skipped); a line that is neither fails, so a malformed exposition is noticed. */
export function parsePrometheusText(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const match = sampleLine.exec(line);
    if (!match) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? "").matchAll(labelPair)) labels[pair[1] ?? ""] = (pair[2] ?? "").replace(/\\(n|"|\\)/g, (_, c: string) => (c === "n" ? "\n" : c));
    samples.push({ name: match[1] ?? "", labels, value: Number(match[3]) });
  }
  return samples;
}

/** The samples of one series name whose labels include `labels`. */
export function samplesOf(samples: Sample[], name: string, labels: Record<string, string> = {}): Sample[] {
  return samples.filter((s) => s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value));
}

/** The sum of those samples' values (0 when there are none). */
export function sumOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samplesOf(samples, name, labels).reduce((sum, s) => sum + s.value, 0);
}

/** Each label's distinct values over all samples (the `le` and `quantile` of histograms and summaries left out). */
export function labelValues(samples: Sample[]): Map<string, Set<string>> {
  const values = new Map<string, Set<string>>();
  for (const sample of samples) {
    for (const [label, value] of Object.entries(sample.labels)) {
      if (label === "le" || label === "quantile") continue;
      let set = values.get(label);
      if (!set) values.set(label, (set = new Set()));
      set.add(value);
    }
  }
  return values;
}
