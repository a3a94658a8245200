import { Router, type Request, type Response } from "express";
import {
  DeleteAccountRequest,
  DismissRequest,
  EmailChangeRequest,
  PasswordChange,
  PasswordResetDo,
  PasswordResetRequest,
  ProfileUpdate,
  SignupRequest,
  TokenRequest,
} from "#contract/account";
import type { Db } from "../db/client";
import { activate, reissueActivation } from "../domain/accounts/activation";
import { deleteAccount, reactivate, reissueReactivation } from "../domain/accounts/deletion";
import { dismiss, listDismissals } from "../domain/accounts/dismissals";
import { confirmEmailChange, requestEmailChange } from "../domain/accounts/email-change";
import { changePassword, requestPasswordReset, resetPassword } from "../domain/accounts/password";
import { profileUpdateErrors, signupMatches, updateProfile } from "../domain/accounts/profile";
import { recipientOf } from "../domain/accounts/recipient";
import { createAccount, existingAccountRefusal, signupGate, signupInputRefusal, type SignupRefusal } from "../domain/accounts/signup";
import { loadUser } from "../domain/members";
import { createSession, memberOfUser, sessionMaxAgeSeconds } from "../domain/sessions";
import { countryOfIp } from "../services/geo";
import type { Mailer } from "../services/mail";
import { requireMember, memberOf } from "./context";
import { mailAccountLink, mailEmailChangeNotice } from "./account-mail";
import { emailInBody, sessionMember, type ClientLimiter } from "./limits";
import { handle, parseInput, sendError } from "./respond";
import { sessionCookie } from "./user";
import { endpoints } from "#contract/endpoints/index";
import { on } from "./endpoint";

export type AccountDeps = { db: Db; secret: string; mailer: Mailer; publicUrl: string; limit: ClientLimiter };

/** Login to a pending deletion: a fresh reactivation mail, at most once an hour (the login route answers 409). */
export function pendingDeletionMailer(deps: AccountDeps) {
  return async (req: Request, res: Response, userId: number): Promise<void> => {
    const token = await reissueReactivation(deps.db, deps.secret, userId);
    const recipient = token ? await recipientOf(deps.db, userId) : null;
    if (token && recipient) await mailAccountLink(deps, req, res, "reactivation", recipient, token);
  };
}


function refuse(res: Response, refusal: SignupRefusal): void {
  if (refusal.code === "validation_failed") return sendError(res, "validation_failed", { fields: refusal.fields });
  sendError(res, refusal.code);
}

export function accountRoutes(deps: AccountDeps): Router {
  const { db, secret, limit } = deps;
  const router = Router();
  const ok = (res: Response) => res.set("Cache-Control", "no-store").json({ ok: true });

  /** A session and its cookie, set exactly as the login route does. */
  async function startSession(req: Request, res: Response, userId: number): Promise<void> {
    const token = await createSession(db, userId, secret);
    res.locals.member = { ...(await memberOfUser(db, userId)), token };
    res.setHeader("Set-Cookie", sessionCookie(req, token, sessionMaxAgeSeconds));
  }

  async function sendUser(res: Response, userId: number, status = 200): Promise<void> {
    res.status(status).set("Cache-Control", "no-store").json({ user: await loadUser(db, userId, res.locals.site.id) });
  }

  on(router, endpoints.signup,
    limit("signup"),
    handle(async (req, res) => {
      const body = parseInput(res, SignupRequest, req.body);
      if (!body) return;
      const site = res.locals.site;
      const refusal = signupGate(site, body) ?? signupInputRefusal(site, body) ?? (await existingAccountRefusal(db, site.id, body.email));
      if (refusal) return refuse(res, refusal);
      const geo = countryOfIp(res.locals.clientIp);
      const country = geo && site.countries.includes(geo) ? geo : (site.countries[0] ?? geo ?? "US");
      const account = await createAccount(db, secret, site, body, country);
      if ("code" in account) return refuse(res, account);
      await startSession(req, res, account.userId);
      // Mailed before the answer, so whoever reads the answer can rely on the mail being on its way.
      const recipient = await recipientOf(db, account.userId);
      if (recipient) await mailAccountLink(deps, req, res, "activation", recipient, account.activationToken);
      await sendUser(res, account.userId, 201);
    }),
  );

  on(router, endpoints.activate,
    limit("activation"),
    handle(async (req, res) => {
      const body = parseInput(res, TokenRequest, req.body);
      if (!body) return;
      if (!(await activate(db, secret, body.token))) return sendError(res, "link_invalid");
      ok(res);
    }),
  );

  on(router, endpoints.sendActivationMail,
    requireMember,
    limit("activation_mail", sessionMember),
    handle(async (req, res) => {
      const { userId } = memberOf(res);
      const outcome = await reissueActivation(db, secret, userId);
      if (outcome === "limited") return sendError(res, "too_many_requests");
      if (outcome !== "confirmed") {
        const recipient = await recipientOf(db, userId);
        if (recipient) await mailAccountLink(deps, req, res, "activation", recipient, outcome.token);
      }
      ok(res);
    }),
  );

  on(router, endpoints.updateProfile,
    requireMember,
    handle(async (req, res) => {
      const body = parseInput(res, ProfileUpdate, req.body);
      if (!body) return;
      // Always the session's own profile: the body has no id, and unknown keys (an id, a user_id) are dropped.
      const { userId } = memberOf(res);
      const fields = await profileUpdateErrors(db, res.locals.site, userId, body);
      if (fields) return sendError(res, "validation_failed", { fields });
      await updateProfile(db, userId, body);
      res.set("Cache-Control", "no-store").json({ user: await loadUser(db, userId, res.locals.site.id) });
    }),
  );

  on(router, endpoints.signupMatches,
    requireMember,
    handle(async (_req, res) => {
      res.set("Cache-Control", "private, no-store").json(await signupMatches(db, memberOf(res).userId, res.locals.site.id));
    }),
  );

  on(router, endpoints.requestPasswordReset,
    limit("password_reset", emailInBody),
    handle(async (req, res) => {
      const body = parseInput(res, PasswordResetRequest, req.body);
      if (!body) return;
      const outcome = await requestPasswordReset(db, secret, res.locals.site.id, body.email);
      if (typeof outcome === "string") return sendError(res, outcome);
      const recipient = await recipientOf(db, outcome.userId);
      if (recipient) await mailAccountLink(deps, req, res, "password_reset", recipient, outcome.token);
      ok(res);
    }),
  );

  on(router, endpoints.resetPassword,
    limit("password_reset_do"),
    handle(async (req, res) => {
      const body = parseInput(res, PasswordResetDo, req.body);
      if (!body) return;
      if (!(await resetPassword(db, secret, body.token, body.password))) return sendError(res, "link_invalid");
      ok(res);
    }),
  );

  on(router, endpoints.changePassword,
    requireMember,
    limit("password_check", sessionMember),
    handle(async (req, res) => {
      const body = parseInput(res, PasswordChange, req.body);
      if (!body) return;
      const { userId, token } = memberOf(res);
      if (!(await changePassword(db, secret, userId, token, body.old_password, body.password))) return sendError(res, "old_password_wrong");
      ok(res);
    }),
  );

  on(router, endpoints.requestMailChange,
    requireMember,
    limit("email_change", sessionMember),
    handle(async (req, res) => {
      const body = parseInput(res, EmailChangeRequest, req.body);
      if (!body) return;
      const { userId } = memberOf(res);
      const outcome = await requestEmailChange(db, secret, { userId, siteId: res.locals.site.id }, body.email, body.password);
      if (typeof outcome === "string") return sendError(res, outcome);
      const recipient = await recipientOf(db, userId);
      // The link proves the new address is theirs, so it goes to the new address; the old one is told, with a way to stop it.
      if (recipient) {
        await mailAccountLink(deps, req, res, "email_change", recipient, outcome.token, body.email);
        await mailEmailChangeNotice(deps, req, res, recipient, body.email);
      }
      ok(res);
    }),
  );

  on(router, endpoints.changeMail,
    limit("email_change_do"),
    handle(async (req, res) => {
      const body = parseInput(res, TokenRequest, req.body);
      if (!body) return;
      const outcome = await confirmEmailChange(db, secret, body.token);
      if (outcome !== "ok") return sendError(res, outcome);
      ok(res);
    }),
  );

  on(router, endpoints.deleteAccount,
    requireMember,
    limit("password_check", sessionMember),
    handle(async (req, res) => {
      const body = parseInput(res, DeleteAccountRequest, req.body);
      if (!body) return;
      const { userId } = memberOf(res);
      const outcome = await deleteAccount(db, secret, userId, body);
      if (outcome === "password_wrong") return sendError(res, "password_wrong");
      res.locals.member = null;
      res.setHeader("Set-Cookie", sessionCookie(req, "", 0));
      const recipient = await recipientOf(db, userId);
      if (recipient) await mailAccountLink(deps, req, res, "reactivation", recipient, outcome.token);
      ok(res);
    }),
  );

  on(router, endpoints.reactivate,
    limit("password_check"),
    handle(async (req, res) => {
      const body = parseInput(res, TokenRequest, req.body);
      if (!body) return;
      const outcome = await reactivate(db, secret, body.token);
      if (!outcome) return sendError(res, "link_invalid");
      await startSession(req, res, outcome.userId);
      await sendUser(res, outcome.userId);
    }),
  );

  on(router, endpoints.dismissals,
    requireMember,
    handle(async (_req, res) => {
      res.set("Cache-Control", "private, no-store").json({ dismissals: await listDismissals(db, memberOf(res).userId) });
    }),
  );

  on(router, endpoints.dismiss,
    requireMember,
    handle(async (req, res) => {
      const body = parseInput(res, DismissRequest, req.body);
      if (!body) return;
      const { userId } = memberOf(res);
      await dismiss(db, userId, body.key);
      res.set("Cache-Control", "no-store").json({ dismissals: await listDismissals(db, userId) });
    }),
  );

  return router;
}
