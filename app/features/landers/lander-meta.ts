import type { MetaFunction } from "@remix-run/node";
import { pageTitle } from "~/utils/page-title";

/** Every lander's <title> and description, translated in its loader. */
export const landerMeta: MetaFunction<() => Promise<{ title: string; description: string }>> = ({ data, matches }) => [
  { title: pageTitle(data?.title, matches) },
  { name: "description", content: data?.description },
];
