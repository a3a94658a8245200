import { describe, expect, it } from "vitest";
import { locales } from "#contract/locales";
import { loadApiConfig } from "../../api/config";
import { maskEmail } from "../../api/domain/accounts/email-change";
import { mailLink, publicOrigin } from "../../api/domain/accounts/links";
import { signupGate, signupInputRefusal } from "../../api/domain/accounts/signup";
import { composeMail, withoutAddresses, type MailKind } from "../../api/services/mail";
import { leakingLogLines, type Harness } from "./harness";

// Pure rules of the accounts feature: links, origins, mail texts, signup checks, configuration.
const kinds: MailKind[] = ["activation", "password_reset", "email_change", "email_change_notice", "reactivation"];
const site = { name: "Rendezvous MILF", mailName: "Rendezvous MILF Team", domain: "milf.localhost" };

describe("links in mails", () => {
  it("point at web's pages, with the locale prefix except for English", () => {
    expect(mailLink("https://example.com", "en", "activation", "tok")).toBe("https://example.com/activate/done?token=tok");
    expect(mailLink("https://example.com", "nl", "password_reset", "tok")).toBe("https://example.com/nl/reset-password/do?token=tok");
    expect(mailLink("https://example.com", "de", "email_change", "tok")).toBe("https://example.com/de/mail-change/do?token=tok");
    expect(mailLink("https://example.com", "sv", "reactivation", "tok")).toBe("https://example.com/sv/account-deleted?token=tok");
    // The notice to the old address carries no token: it opens the reset form.
    expect(mailLink("https://example.com", "pl", "email_change_notice")).toBe("https://example.com/pl/reset-password");
    expect(mailLink("https://example.com", "en", "email_change_notice")).toBe("https://example.com/reset-password");
  });

  it("show the new address of an e-mail change masked: first letters and the top-level domain only", () => {
    expect(maskEmail("jane.doe@example.com")).toBe("j***@e***.com");
    expect(maskEmail("x@mail.example.co.uk")).toBe("x***@m***.uk");
    expect(maskEmail("ümit@bücher.de")).toBe("ü***@b***.de");
  });

  it("take the origin from the configured template alone, the site's domain in place of {domain}", () => {
    expect(publicOrigin("https://{domain}", "milf.localhost")).toBe("https://milf.localhost");
    expect(publicOrigin("http://{domain}:4100", "she.localhost")).toBe("http://she.localhost:4100");
    expect(publicOrigin("https://www.{domain}", "milf.example")).toBe("https://www.milf.example");
    expect(publicOrigin("https://dates.example", "milf.localhost")).toBe("https://dates.example");
  });
});

describe("mail texts", () => {
  it.each(locales)("are complete in %s: site name in subject and body, the link, the member's name", (language) => {
    for (const kind of kinds) {
      const link = mailLink("https://milf.example", language, kind, "T0KEN");
      const mail = composeMail({ kind, to: "x@example.com", language, name: "Sam", site, link, newAddress: "s***@e***.com", userId: 1, unsubscribeUrl: null });
      if (kind === "email_change_notice") expect(mail.text).toContain("s***@e***.com");
      expect(mail.subject).toContain(site.name);
      expect(mail.text).toContain(site.name);
      expect(mail.text).toContain("Sam");
      expect(mail.text).toContain(link);
      expect(mail.html).toContain(link);
      expect(`${mail.subject}${mail.text}${mail.html}`).not.toMatch(/\{\{|\}\}|\b(?:activation|password_reset|email_change|reactivation|greeting|signature|linkHint)\b/);
      expect(mail.from).toEqual({ name: "Rendezvous MILF Team", address: "noreply@milf.localhost" });
    }
  });

  it("are in the member's language and escape HTML", () => {
    const args = { kind: "activation" as const, to: "x@example.com", name: "<Sam & Co>", site, link: "https://m.example/activate/done?token=a&b", userId: 1, unsubscribeUrl: null };
    expect(composeMail({ ...args, language: "en" }).subject).toBe("Confirm your e-mail address for Rendezvous MILF");
    expect(composeMail({ ...args, language: "fi" }).subject).toBe("Vahvista sähköpostiosoitteesi palvelussa Rendezvous MILF");
    const html = composeMail({ ...args, language: "en" }).html;
    expect(html).toContain("&lt;Sam &amp; Co&gt;");
    expect(html).not.toContain("<Sam");
    expect(composeMail({ ...args, language: "en" }, "mail@dates.example").from.address).toBe("mail@dates.example");
  });

  it("keeps addresses out of logged send errors", () => {
    expect(withoutAddresses(new Error("550 <a.b+c@example.com>: rejected; also x@y.z"))).toBe("550 <[address]>: rejected; also [address]");
  });
});

describe("signup checks", () => {
  it("gates on the site's signups setting", () => {
    expect(signupGate({ signups: "all" }, {})).toBeNull();
    expect(signupGate({ signups: "with_trafficsource" }, {})).toEqual({ code: "signups_closed" });
    expect(signupGate({ signups: "with_trafficsource" }, { tracking: { network: "n" } })).toBeNull();
    expect(signupGate({ signups: "other" }, {})).toEqual({ code: "signups_closed" });
    expect(signupGate({ signups: "other" }, { invitation: "code" })).toBeNull();
  });

  it("checks the age on the day: 18 on the birthday, not the day before", () => {
    const now = new Date("2026-06-15T12:00:00Z");
    const body = { name: "Sam", email: "sam@example.com" };
    expect(signupInputRefusal({ minAge: 18 }, { ...body, date_of_birth: "2008-06-15" }, now)).toBeNull();
    expect(signupInputRefusal({ minAge: 18 }, { ...body, date_of_birth: "2008-06-16" }, now)).toEqual({ code: "invalid_date_of_birth" });
    expect(signupInputRefusal({ minAge: 18 }, { ...body, date_of_birth: "1905-06-15" }, now)).toEqual({ code: "invalid_date_of_birth" });
    expect(signupInputRefusal({ minAge: 18 }, { ...body, date_of_birth: "1905-06-16" }, now)).toBeNull();
  });
});

describe("configuration", () => {
  it("reads SMTP_URL, MAIL_FROM and PUBLIC_URL as optional, an empty value as unset", () => {
    const base = { NODE_ENV: "test" as const, SESSION_SECRET: "s".repeat(40), DATA_DIR: "/tmp/unused" };
    const set = loadApiConfig({ ...base, SMTP_URL: "smtp://mail:25", MAIL_FROM: "noreply@dates.example", PUBLIC_URL: "https://dates.example/" });
    expect(set).toMatchObject({ SMTP_URL: "smtp://mail:25", MAIL_FROM: "noreply@dates.example", PUBLIC_URL: "https://dates.example" });
    const unset = loadApiConfig({ ...base, SMTP_URL: "", PUBLIC_URL: "", PORT: "" });
    expect(unset.SMTP_URL).toBeUndefined();
    expect(() => loadApiConfig({ ...base, PUBLIC_URL: "not a url" })).toThrow(/PUBLIC_URL/);
  });

  it("takes the links' origin from PUBLIC_URL, else https://{domain} in production and web's local port elsewhere", () => {
    const base = { SESSION_SECRET: "s".repeat(40), DATA_DIR: "/tmp/unused", SMTP_URL: "smtp://127.0.0.1:2525" };
    expect(loadApiConfig({ ...base, NODE_ENV: "production" }).PUBLIC_URL).toBe("https://{domain}");
    expect(loadApiConfig({ ...base, NODE_ENV: "production", PORT: "8080" }).PUBLIC_URL).toBe("https://{domain}");
    expect(loadApiConfig({ ...base, NODE_ENV: "development" }).PUBLIC_URL).toBe("http://{domain}:3000");
    expect(loadApiConfig({ ...base, NODE_ENV: "test", PORT: "4100" }).PUBLIC_URL).toBe("http://{domain}:4100");
    expect(loadApiConfig({ ...base, NODE_ENV: "production", PUBLIC_URL: "https://www.{domain}/" }).PUBLIC_URL).toBe("https://www.{domain}");
    expect(loadApiConfig({ ...base, NODE_ENV: "production", PUBLIC_URL: "http://{domain}:4100" }).PUBLIC_URL).toBe("http://{domain}:4100");
    // An origin only: no path, query, credentials or other scheme.
    for (const bad of ["https://dates.example/app", "https://dates.example?x=1", "https://user@dates.example", "ftp://dates.example", "https://", "javascript:alert(1)"]) {
      expect(() => loadApiConfig({ ...base, NODE_ENV: "production", PUBLIC_URL: bad }), bad).toThrow(/PUBLIC_URL/);
    }
  });
});

describe("the log check of the api tests", () => {
  it("finds addresses and secrets in log lines", () => {
    const api = { logLines: ['{"msg":"ok"}', '{"msg":"to a.b@example.com"}', '{"msg":"token abcdef123"}'] } as Harness;
    expect(leakingLogLines(api, ["abcdef123"])).toEqual(api.logLines.slice(1));
  });
});
