import { z } from "zod";
import { Tracking } from "./account";
import { camSlots } from "./cam";

/**
 * POST /api/cam-click.php {slot, tracking?} -> { url } | not_found 404 (the site shows no tiles). The visitor's
 * tracking values come from web's tracking cookie; a member's own are the api's.
 */
export const CamClickRequest = z.object({ slot: z.enum(camSlots), tracking: Tracking.optional() });
export const CamClickResponse = z.object({ url: z.string() });
