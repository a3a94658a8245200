import type { Request, Response } from "express";
import { parse as parseCookie } from "cookie";
import type { z } from "zod";
import type { OkResponse } from "#contract/account";
import { StaffPasswordChange, StaffSetupQuery, StaffSetupRequest, type StaffSetupDone, type StaffSetupResponse } from "#contract/staff-setup";
import type { Db } from "../db/client";
import { changeStaffPassword, completeSetup, pendingSetup } from "../domain/staff/setup";
import { createStaffSession, staffSessionCookieName, staffSessionMaxAgeSeconds } from "../domain/staff/sessions";
import type { AccountOf, ClientLimiter } from "./limits";
import { handle, parseInput, sendError } from "./respond";
import { staffSessionCookies, type StaffRouteKit } from "./staff";
import { endpoints } from "#contract/endpoints/index";
import { on } from "./endpoint";

const json = (res: Response) => res.set("Cache-Control", "private, no-store");

/** A set-up link's attempts count per link (its token, in the body of a POST); the limiter keeps only an HMAC of it. */
const setupTokenInBody: AccountOf = (req) => {
  const token = (req.body as { token?: unknown } | undefined)?.token;
  return typeof token === "string" && token.length <= 200 ? `staff-setup:${token}` : null;
};

/** A password change counts per staff session (the gate has not run yet when the limiter does). */
const staffSessionOfRequest: AccountOf = (req: Request) => {
  const token = parseCookie(req.headers.cookie ?? "")[staffSessionCookieName];
  return token && token.length <= 200 ? `staff-session:${token}` : null;
};

/**
 * The set-up link's endpoints and the staff password change (contract/staff-setup.ts, docs/staff.md). The set-up
 * endpoints need no staff session: the link's token is the credential, limited as staff logins are (staff_login,
 * api/http/limits.ts). Registered through staffRoutes' `more` (api/app.ts).
 */
export function staffSetupRoutes(deps: { db: Db; secret: string; limit: ClientLimiter }): (kit: StaffRouteKit) => void {
  const { db, secret, limit } = deps;
  return ({ router, route, staffOf }) => {
    on(router, endpoints.staffSetup,
      limit("staff_login"),
      handle(async (req, res) => {
        const query = parseInput(res, StaffSetupQuery, req.query);
        if (!query) return;
        const setup = await pendingSetup(db, secret, query.token);
        if (!setup) return sendError(res, "link_invalid");
        json(res).json({ email: setup.email, name: setup.name, totp_secret: setup.totpSecret, otpauth_uri: setup.otpauthUri } satisfies StaffSetupResponse);
      }),
    );

    on(router, endpoints.completeStaffSetup,
      limit("staff_login", setupTokenInBody),
      handle(async (req, res) => {
        const body = parseInput(res, StaffSetupRequest, req.body);
        if (!body) return;
        const outcome = await completeSetup(db, secret, body, res.locals.clientIp);
        if (outcome.kind === "link_invalid") return sendError(res, "link_invalid");
        if (outcome.kind === "code_wrong") {
          return sendError(res, "validation_failed", { fields: { code: ["is not the current code of the authenticator app for this secret"] } });
        }
        json(res).json({ recovery_codes: outcome.recoveryCodes } satisfies StaffSetupDone);
      }),
    );

    // The limiter first (its own layer on the same path), then the gate and the handler.
    on(router, endpoints.changeStaffPassword, limit("password_check", staffSessionOfRequest));
    route(endpoints.changeStaffPassword, async (req, res) => {
      const body = parseInput(res, StaffPasswordChange, req.body);
      if (!body) return;
      const staff = staffOf(res);
      const outcome = await changeStaffPassword(db, staff, { currentPassword: body.current_password, password: body.password }, res.locals.clientIp);
      if (outcome === "current_wrong") return sendError(res, "old_password_wrong");
      if (outcome === "same") return sendError(res, "validation_failed", { fields: { password: ["must differ from the current password"] } });
      // Every session of the account ended with the change; the member who made it goes on in a new one.
      const token = await createStaffSession(db, staff.id, secret);
      res.setHeader("Set-Cookie", staffSessionCookies(req, token, staffSessionMaxAgeSeconds));
      json(res).json({ ok: true } satisfies z.infer<typeof OkResponse>);
    });
  };
}
