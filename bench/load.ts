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
  /** The warm-up before the run (filled in by the caller). */
  warmUp?: WarmUpResult;
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

/** What a warm-up took: the rates of its windows, oldest first. */
export type WarmUpResult = { seconds: number; rates: number[]; steady: boolean };

/**
 * A warm-up's window; how much faster than the best window before it a window may be and still count as steady; and
 * how much slower: a window well below the best is a dip of a noisy machine, not a steady server, and counts as neither.
 */
const windowSeconds = 4;
const steadyGain = 0.03;
const steadyDip = 0.1;

/**
 * The same load, numbers thrown away, until the server is steady: a cold process gets faster for tens of seconds
 * while V8 optimises its hot code, the young generation grows and caches and pools fill (docs/performance-history.md). One
 * load of at most `maxSeconds`, read per second (autocannon's ticks) in windows of 4 s, ends once at least `seconds`
 * have passed and two windows in a row are within 3% above and 10% below the best before them (`steady` is false
 * when `maxSeconds` came first). A whole bench once took a dip (232, 298, 353, 315, 307 req/s) for steady with the
 * upper bound alone, and measured that row at two thirds of its rate in other runs. `maxSeconds` at or below `seconds`: a fixed warm-up of `seconds`.
 */
export function warmUp(url: string, load: LoadOptions & { maxSeconds?: number }): Promise<WarmUpResult> {
  const maxSeconds = load.maxSeconds ?? load.seconds;
  if (maxSeconds <= load.seconds) {
    return (load.seconds > 0 ? run(options(url, load)) : Promise.resolve()).then(() => ({ seconds: load.seconds, rates: [], steady: true }));
  }
  return new Promise((resolve, reject) => {
    const rates: number[] = [];
    let ticks = 0;
    let inWindow = 0;
    let calm = 0;
    let steady = false;
    // Its own handle: scale.ts warms two webs up at once, and each must stop its own load.
    const instance = autocannon(options(url, { ...load, seconds: maxSeconds }), (error) => {
      if (running === instance) running = null;
      if (error) reject(error);
      else resolve({ seconds: ticks, rates, steady });
    });
    running = instance;
    instance.on("tick", ({ counter }: { counter: number }) => {
      ticks += 1;
      inWindow += counter;
      if (ticks % windowSeconds !== 0 || steady) return;
      const rate = inWindow / windowSeconds;
      inWindow = 0;
      const best = Math.max(...rates);
      calm = rates.length > 0 && rate <= best * (1 + steadyGain) && rate >= best * (1 - steadyDip) ? calm + 1 : 0;
      rates.push(rate);
      if (ticks >= load.seconds && calm >= 2) {
        steady = true;
        instance.stop();
      }
    });
  });
}

/** The rule warmUp() stops by, in words, for the header of the bench's report. */
export const steadyRule = `${windowSeconds} s windows until two in a row are within ${steadyGain * 100}% above and ${steadyDip * 100}% below the best before`;

/** "steady after 21 s (req/s of its 4 s windows: 232, 298, ...)", for the bench's log and warnings. */
export function describeWarmUp(warm: WarmUpResult): string {
  return `${warm.steady ? "steady" : "not yet steady"} after ${warm.seconds} s (req/s of its ${windowSeconds} s windows: ${warm.rates.map((r) => r.toFixed(0)).join(", ")})`;
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
