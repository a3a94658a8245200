/**
 * Loaded into the bench's api and web (`node --import tsx --import ./bench/memory-probe.ts`) when
 * BENCH_MEMORY_FILE is set: on SIGUSR2 the process runs a full garbage collection (twice, so what the
 * first one freed for finalisation goes too) and writes process.memoryUsage() as JSON to that file
 * (through a temporary file and a rename, so the bench never reads half of it). The bench reads it
 * before and after opening the live streams (bench/live-stream.ts). Nothing else changes in the
 * process: gc is exposed only inside this module, at the first signal.
 */
import { renameSync, writeFileSync } from "node:fs";
import v8 from "node:v8";
import vm from "node:vm";

const file = process.env.BENCH_MEMORY_FILE;
if (file) {
  let gc: (() => void) | null = null;
  process.on("SIGUSR2", () => {
    if (!gc) {
      v8.setFlagsFromString("--expose-gc");
      gc = vm.runInNewContext("gc") as () => void;
    }
    gc();
    gc();
    const usage = process.memoryUsage();
    writeFileSync(`${file}.tmp`, JSON.stringify({ pid: process.pid, at: Date.now(), ...usage }));
    renameSync(`${file}.tmp`, file);
  });
}
