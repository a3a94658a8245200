/** autocannon runs: a warm-up whose numbers are thrown away, then the measurement. */
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
  /** Connection errors and timeouts (autocannon counts a timeout as an error too). */
  errors: number;
  timeouts: number;
  bytesPerSec: number;
  /** Server CPU time per answered request, by process (filled in by the caller; null without /proc). */
  cpuMsPerRequest: Record<string, number | null>;
  /** CPU use of the bench process itself (autocannon) during the run, in % of one core. */
  loadGeneratorCpuPercent: number | null;
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

type LoadOptions = { seconds: number; connections: number; headers: Record<string, string> };

function options(url: string, { seconds, connections, headers }: LoadOptions): Options {
  return { url, connections, headers, duration: seconds, timeout: 10 };
}

/** The same load, numbers thrown away: lets the JIT, caches and connection pools settle. */
export async function warmUp(url: string, load: LoadOptions): Promise<void> {
  if (load.seconds > 0) await run(options(url, load));
}

export async function measure(name: string, url: string, load: LoadOptions): Promise<LoadResult> {
  const result = await run(options(url, load));
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
    cpuMsPerRequest: {},
    loadGeneratorCpuPercent: null,
  };
}
