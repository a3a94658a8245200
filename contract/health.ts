import { z } from "zod";

export const Health = z.object({ status: z.enum(["ok", "degraded"]), service: z.string(), checks: z.record(z.string(), z.string()) });
