import { HeldMessageDecision, HeldMessagesQuery, heldMessagesPageSize, type HeldMessageOutcome, type HeldMessagesResponse } from "#contract/staff-held-messages";
import type { Db } from "../db/client";
import { decideHeldMessage, heldMessages } from "../domain/staff/held-messages";
import type { StaffRouteKit } from "./staff";
import { parseInput, sendError } from "./respond";

/** The queue of members' messages held for contact details (docs/staff.md, contact details in chat), for moderators and admins. */
export function staffHeldMessageRoutes(deps: { db: Db }) {
  const { db } = deps;
  return ({ route, staffOf }: StaffRouteKit) => {
    route("get", "/api/staff/held-messages.php", "messages.moderate", async (req, res) => {
      const query = parseInput(res, HeldMessagesQuery, req.query);
      if (!query) return;
      const rows = await heldMessages(db, staffOf(res), query.after ?? 0, heldMessagesPageSize + 1);
      const page = rows.slice(0, heldMessagesPageSize);
      res
        .set("Cache-Control", "private, no-store")
        .json({ messages: page, next_after: rows.length > heldMessagesPageSize ? (page[page.length - 1]?.id ?? null) : null } satisfies HeldMessagesResponse);
    });

    route("post", "/api/staff/held-messages.php", "messages.moderate", async (req, res) => {
      const body = parseInput(res, HeldMessageDecision, req.body);
      if (!body) return;
      const outcome = await decideHeldMessage(db, staffOf(res), res.locals.clientIp ?? null, body.id, body.decision);
      if (outcome.kind === "not_found") return sendError(res, "not_found");
      res.set("Cache-Control", "private, no-store").json({ ok: true, id: body.id, decision: body.decision, refunded: outcome.refunded } satisfies HeldMessageOutcome);
    });
  };
}
