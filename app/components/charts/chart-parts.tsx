import type { ReactNode } from "react";

/** The drawing area every chart shares: a fixed viewBox that scales to its container's width (390 px too). */
export const chartSize = { width: 640, height: 260, top: 16, right: 16, bottom: 40, left: 56 } as const;

/** Series colours with at least 3:1 contrast against white (WCAG 1.4.11), told apart by the legend's words too. */
export const seriesColours = ["#1d4ed8", "#b45309", "#047857", "#be123c", "#6d28d9"] as const;

/**
 * A chart's frame: an SVG with an accessible name and description (role="img", <title> and <desc>), drawn on the
 * server so it shows without JavaScript and prints, the legend in words, and the table of its figures after it.
 */
export function ChartFrame({ id, title, description, legend, table, children }: { id: string; title: string; description: string; legend: string[]; table: ReactNode; children: ReactNode }) {
  return (
    <figure className="mt-4 rounded-xl bg-white p-4 ring-1 ring-gray-200" data-testid={`chart-${id}`}>
      <figcaption className="font-semibold text-gray-900">{title}</figcaption>
      <svg
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        viewBox={`0 0 ${chartSize.width} ${chartSize.height}`}
        className="mt-2 h-auto w-full"
        preserveAspectRatio="xMidYMid meet"
      >
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{description}</desc>
        {children}
      </svg>
      {legend.length > 1 ? (
        <ul className="mt-2 flex flex-wrap gap-4 text-sm text-gray-700">
          {legend.map((name, i) => (
            <li key={name} className="flex items-center gap-2">
              <span aria-hidden="true" className="inline-block h-3 w-3 rounded-sm" style={{ backgroundColor: seriesColours[i % seriesColours.length] }} />
              {name}
            </li>
          ))}
        </ul>
      ) : null}
      {table}
    </figure>
  );
}

/** The value axis: ticks of the scale with their labels and light grid lines. */
export function ValueAxis({ ticks, y, format }: { ticks: number[]; y: (value: number) => number; format: (value: number) => string }) {
  return (
    <g className="text-gray-600">
      {ticks.map((tick) => (
        <g key={tick} transform={`translate(0, ${y(tick)})`}>
          <line x1={chartSize.left} x2={chartSize.width - chartSize.right} stroke="#e5e7eb" />
          <text x={chartSize.left - 8} dy="0.32em" textAnchor="end" fontSize={12} fill="#4b5563">
            {format(tick)}
          </text>
        </g>
      ))}
    </g>
  );
}

/** Category labels under the chart: at most `most` of them, evenly spread, so they never overlap. */
export function CategoryAxis({ labels, x, most = 8 }: { labels: string[]; x: (label: string) => number; most?: number }) {
  const step = Math.max(1, Math.ceil(labels.length / most));
  return (
    <g>
      {labels
        .filter((_, i) => i % step === 0)
        .map((label) => (
          <text key={label} x={x(label)} y={chartSize.height - chartSize.bottom + 18} textAnchor="middle" fontSize={12} fill="#4b5563">
            {label}
          </text>
        ))}
    </g>
  );
}

/** A number as the axis shows it: whole thousands as "12k". */
export function shortNumber(value: number): string {
  return Math.abs(value) >= 10_000 ? `${Math.round(value / 1000)}k` : String(Math.round(value * 100) / 100);
}
