import { endpoints } from "#contract/endpoints/index";

/**
 * The api endpoints' paths, for api_calls_total's `endpoint` label (server/metrics.ts): read from the endpoint table
 * (contract/endpoints/), so every endpoint web calls is on it; a call to a path not listed is counted as "other".
 */
export const apiEndpoints: readonly string[] = [...new Set(Object.values(endpoints).map((endpoint) => endpoint.path))].filter((path) => path.startsWith("/api/")).sort();
