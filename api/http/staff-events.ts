import { createHash } from "node:crypto";
import { parse as parseCookie } from "cookie";
import type { Db } from "../db/client";
import { staffMay } from "../domain/staff/permissions";
import { inboxCounts, inboxVersion } from "../domain/staff/inbox";
import { photoQueue, sitesOf } from "../domain/staff/photo-review";
import { openReportCount } from "../domain/staff/reports";
import { staffOfSession, staffSessionCookieName } from "../domain/staff/sessions";
import type { StaffRouteKit } from "./staff";
import { defaultStreamCaps } from "../events/hub";
import { endpoints } from "#contract/endpoints/index";

/** How often a staff stream looks at the queues, and how often it checks that its session still lives. */
export const staffStreamTiming = { pollMs: 2_000, sessionCheckMs: 60_000, heartbeatMs: 25_000 };

/**
 * GET /api/staff/events.php (docs/staff.md): the staff frame's live queue sizes as server-sent events, `event: queues`
 * with { photos, reports } (contract QueueSizes) at once and whenever they change, and for operators and admins
 * `event: inbox` with the inbox's queue sizes and a version that changes with its messages and claims. Staff are few, so each stream
 * counts its own queues every few seconds (two indexed counts) instead of listening to every photo and report;
 * it ends when the staff session does (logout, a disabled account, a password change).
 */
export function staffEventRoutes(deps: { db: Db; secret: string; timing?: typeof staffStreamTiming }) {
  const { db, secret } = deps;
  const timing = deps.timing ?? staffStreamTiming;
  /** Each staff account's open streams, oldest first: capped as a member's are (api/events/hub.ts), each polls the database. */
  const openByStaff = new Map<number, Set<(reason: string) => void>>();
  return ({ route, staffOf }: StaffRouteKit) => {
    route(endpoints.staffEvents, async (req, res) => {
      const staff = staffOf(res);
      const token = parseCookie(req.headers.cookie ?? "")[staffSessionCookieName] ?? "";
      const siteIds = sitesOf(staff);
      res.status(200).set({ "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "private, no-store", "X-Accel-Buffering": "no" });
      res.flushHeaders();
      res.write(`retry: ${timing.pollMs}\n\n`);
      let last = "";
      let lastInbox = "";
      let closed = false;
      let busy = false;
      let lastSessionCheck = Date.now();
      const send = async () => {
        if (busy || closed) return;
        busy = true;
        try {
          if (Date.now() - lastSessionCheck >= timing.sessionCheckMs) {
            lastSessionCheck = Date.now();
            if (!(await staffOfSession(db, token, secret))) return end();
          }
          const [photos, reports] = await Promise.all([
            staffMay(staff, "photos.moderate") ? photoQueue(db, siteIds, 0).then((queue) => queue.total) : 0,
            staffMay(staff, "reports.handle") ? openReportCount(db, siteIds) : 0,
          ]);
          const data = JSON.stringify({ photos, reports });
          if (data !== last && !closed) {
            last = data;
            res.write(`event: queues\ndata: ${data}\n\n`);
          }
          if (staffMay(staff, "inbox.answer")) {
            // The inbox: its queue sizes and a fingerprint of its state (last messages and claims), so an open inbox
            // page reloads its list when a message arrives or an operator takes a conversation.
            const [{ counts }, state] = await Promise.all([inboxCounts(db, staff), inboxVersion(db, staff)]);
            const inboxData = JSON.stringify({ ...counts, version: fingerprint(state) });
            if (inboxData !== lastInbox && !closed) {
              lastInbox = inboxData;
              res.write(`event: inbox\ndata: ${inboxData}\n\n`);
            }
          }
        } catch (error) {
          req.log.warn({ err: error }, "staff stream update failed");
        } finally {
          busy = false;
        }
      };
      const poll = setInterval(() => void send(), timing.pollMs);
      const heartbeat = setInterval(() => res.write(": keep-alive\n\n"), timing.heartbeatMs);
      function end(reason?: string): void {
        if (closed) return;
        closed = true;
        clearInterval(poll);
        clearInterval(heartbeat);
        const mine = openByStaff.get(staff.id);
        if (mine?.delete(end) && mine.size === 0) openByStaff.delete(staff.id);
        if (reason) res.write(`event: end\ndata: ${JSON.stringify({ reason })}\n\n`);
        res.end();
      }
      req.on("close", () => end());
      // Past the cap, the oldest streams end (the newest is the tab in front of the staff member).
      const mine = openByStaff.get(staff.id) ?? new Set();
      openByStaff.set(staff.id, mine);
      mine.add(end);
      for (const oldest of mine) {
        if (mine.size <= defaultStreamCaps.perMember) break;
        oldest("too_many_streams");
      }
      await send();
    });
  };
}

/** A short digest of a text (the inbox's state): equal states, equal versions. */
function fingerprint(text: string): string {
  return createHash("sha256").update(text).digest("base64url").slice(0, 16);
}
