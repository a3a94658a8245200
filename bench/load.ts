/** One autocannon measurement (after a warm-up run whose numbers are thrown away). */
import autocannon, { type Instance, type Options, type Result } from "autocannon";

export type LoadResult = {
  name: string;
  url: string;
  seconds: number;
  connections: number;
  requests: number;
  reqPerSec: number;
  latencyMs: { average: number; p50: number; p90: number; p99: number; max: number };
  non2xx: number;
  statusCodes: Record<string, number>;
  errors: number;
  timeouts: number;
  bytesPerSec: number;
};

let running: Instance | null = null;

/** Stops the run in progress, if any (Ctrl-C). */
export function stopRunning(): void {
  running?.stop();
}

function run(options: Options): Promise<Result> {
  return new Promise((resolve, reject) => {
    running = autocannon(options, (error, result) => {
      running = null;
      if (error) reject(error);
      else resolve(result);
    });
  });
}

export async function measure(
  name: string,
  url: string,
  options: { seconds: number; warmupSeconds: number; connections: number; headers: Record<string, string> },
): Promise<LoadResult> {
  const base: Options = { url, connections: options.connections, headers: options.headers, timeout: 10 };
  if (options.warmupSeconds > 0) await run({ ...base, duration: options.warmupSeconds });
  const result = await run({ ...base, duration: options.seconds });
  return {
    name,
    url,
    seconds: result.duration,
    connections: result.connections,
    requests: result.requests.total,
    reqPerSec: result.requests.average,
    latencyMs: {
      average: result.latency.average,
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
    },
    non2xx: result.non2xx,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count])),
    errors: result.errors,
    timeouts: result.timeouts,
    bytesPerSec: result.throughput.average,
  };
}
