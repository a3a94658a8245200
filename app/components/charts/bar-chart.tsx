import { scaleBand, scaleLinear } from "d3-scale";
import type { ReactNode } from "react";
import { CategoryAxis, ChartFrame, ValueAxis, chartSize, seriesColours, shortNumber } from "./chart-parts";
import type { ChartSeries } from "./line-chart";

/**
 * A bar chart of one or more series side by side per category, drawn on the server as SVG (d3-scale's band and linear
 * scales, React for the elements). Negative values (a day of refunds) go below the zero line. Each bar carries a
 * <title> with its figure; the table after the chart holds every figure.
 */
export function BarChart({ id, title, description, categories, series, table, format = shortNumber }: { id: string; title: string; description: string; categories: string[]; series: ChartSeries[]; table: ReactNode; format?: (value: number) => string }) {
  const x = scaleBand<string>().domain(categories).range([chartSize.left, chartSize.width - chartSize.right]).padding(0.2);
  const inner = scaleBand<string>()
    .domain(series.map((s) => s.name))
    .range([0, x.bandwidth()])
    .padding(0.08);
  const values = series.flatMap((s) => s.values);
  const y = scaleLinear()
    .domain([Math.min(0, ...values), Math.max(1, ...values)])
    .nice()
    .range([chartSize.height - chartSize.bottom, chartSize.top]);
  return (
    <ChartFrame id={id} title={title} description={description} legend={series.map((s) => s.name)} table={table}>
      <ValueAxis ticks={y.ticks(4)} y={y} format={format} />
      <CategoryAxis labels={categories} x={(label) => (x(label) ?? 0) + x.bandwidth() / 2} />
      {series.map((s, si) => (
        <g key={s.name} fill={seriesColours[si % seriesColours.length]}>
          {s.values.map((value, i) => {
            const category = categories[i]!;
            const top = y(Math.max(0, value));
            return (
              <rect key={category} x={(x(category) ?? 0) + (inner(s.name) ?? 0)} y={top} width={inner.bandwidth()} height={Math.abs(y(value) - y(0))}>
                <title>{`${s.name}, ${category}: ${format(value)}`}</title>
              </rect>
            );
          })}
        </g>
      ))}
      <line x1={chartSize.left} x2={chartSize.width - chartSize.right} y1={y(0)} y2={y(0)} stroke="#6b7280" />
    </ChartFrame>
  );
}
