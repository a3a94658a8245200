import { scaleLinear, scalePoint } from "d3-scale";
import { line } from "d3-shape";
import type { ReactNode } from "react";
import { CategoryAxis, ChartFrame, ValueAxis, chartSize, seriesColours, shortNumber } from "./chart-parts";

export type ChartSeries = { name: string; values: number[] };

/**
 * A line chart of one or more series over the same categories (days), drawn on the server as SVG (d3-scale for the
 * scales, d3-shape for the paths, React for the elements). Each point carries a <title>: its figure on hover, as an
 * enhancement; the table after the chart holds every figure.
 */
export function LineChart({ id, title, description, categories, series, table, format = shortNumber }: { id: string; title: string; description: string; categories: string[]; series: ChartSeries[]; table: ReactNode; format?: (value: number) => string }) {
  const x = scalePoint<string>().domain(categories).range([chartSize.left, chartSize.width - chartSize.right]).padding(0.3);
  const max = Math.max(1, ...series.flatMap((s) => s.values));
  const y = scaleLinear().domain([0, max]).nice().range([chartSize.height - chartSize.bottom, chartSize.top]);
  const path = line<number>()
    .x((_, i) => x(categories[i]!) ?? 0)
    .y((value) => y(value));
  return (
    <ChartFrame id={id} title={title} description={description} legend={series.map((s) => s.name)} table={table}>
      <ValueAxis ticks={y.ticks(4)} y={y} format={format} />
      <CategoryAxis labels={categories} x={(label) => x(label) ?? 0} />
      {series.map((s, si) => {
        const colour = seriesColours[si % seriesColours.length];
        return (
          <g key={s.name}>
            <path d={path(s.values) ?? ""} fill="none" stroke={colour} strokeWidth={2.5} strokeDasharray={si % 2 === 1 ? "6 4" : undefined} />
            {s.values.map((value, i) => (
              <circle key={categories[i]} cx={x(categories[i]!) ?? 0} cy={y(value)} r={categories.length > 40 ? 2 : 3.5} fill={colour}>
                <title>{`${s.name}, ${categories[i]}: ${format(value)}`}</title>
              </circle>
            ))}
          </g>
        );
      })}
    </ChartFrame>
  );
}
