import { createServer, type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { UserResponse } from "#contract/user";
import { users } from "../../api/db/schema";
import { call, leakingLogLines, linkOf, parseMail, readMails, sessionCookieOf, startApi, type Harness, type Mail } from "./harness";

// Mail over real SMTP (SMTP_URL), and an SMTP outage that must not cost the member their signup.
type Received = { rcptTo: string[]; mail: Mail };

let smtp: SMTPServer;
let smtpPort: number;
const received: Received[] = [];
const password = "smtp-test-password";

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        void parseMail(Buffer.concat(chunks)).then((mail) => {
          received.push({ rcptTo: session.envelope.rcptTo.map((r) => r.address), mail });
          callback();
        }, callback);
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => smtp?.close(() => resolve()));
});

/** A loopback port that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function signup(api: Harness, email: string, headers: Record<string, string> = {}) {
  return call(api, "POST", "/api/signup.php", { body: { email, name: "Smtp Tester", date_of_birth: "1992-03-04", password, language: "it" }, headers, host: "she.localhost" });
}

describe("SMTP_URL", () => {
  let api: Harness;
  beforeAll(async () => {
    api = await startApi({ env: { SMTP_URL: `smtp://127.0.0.1:${smtpPort}` } });
  });
  afterAll(async () => {
    await api?.close();
  });

  it("sends the activation mail over SMTP to the member, with the site's name and the /activate/done link", async () => {
    const email = `smtp-${Date.now()}@example.com`;
    const res = await signup(api, email, { "X-Forwarded-Proto": "https", "X-Forwarded-Host": "she.localhost:8443" });
    expect(res.status).toBe(201);
    const session = sessionCookieOf(res)!.value;

    const message = received.find((r) => r.rcptTo.includes(email));
    expect(message).toBeDefined();
    expect(message!.mail.to).toBe(email);
    expect(message!.mail.from).toBe('"Rendezvous She" <noreply@she.localhost>');
    expect(message!.mail.subject).toContain("Rendezvous She");
    expect(message!.mail.subject).toMatch(/Conferma/);
    const link = linkOf(message!.mail, "/activate/done");
    // The configured origin (the harness's http://{domain}): the forwarded scheme and port choose nothing.
    expect(link?.origin).toBe("http://she.localhost");
    expect(link?.pathname).toBe("/it/activate/done");
    const token = link!.searchParams.get("token")!;
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(message!.mail.html).toContain(`/it/activate/done?token=${token}`);
    // No .eml files when SMTP is configured.
    expect(await readMails(api)).toHaveLength(0);

    expect((await call(api, "POST", "/api/activate.php", { body: { token }, host: "she.localhost" })).status).toBe(200);
    const me = UserResponse.parse(await (await call(api, "GET", "/api/user.php", { token: session, host: "she.localhost" })).json());
    expect(me.user?.status).toBe("active");
    expect(leakingLogLines(api, [password, token, session])).toEqual([]);
  });
});

describe("an SMTP server that cannot be reached", () => {
  let api: Harness;
  beforeAll(async () => {
    api = await startApi({ env: { SMTP_URL: `smtp://127.0.0.1:${await closedPort()}` } });
  });
  afterAll(async () => {
    await api?.close();
  });

  it("still signs the member up, and logs the failure without the address", async () => {
    const email = `nosmtp-${Date.now()}@example.com`;
    const res = await signup(api, email);
    expect(res.status).toBe(201);
    const session = sessionCookieOf(res)!.value;
    expect(UserResponse.parse(await res.json()).user?.status).toBe("not_confirmed");
    const [row] = await api.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    expect(row).toBeDefined();
    const failure = api.logLines.find((line) => line.includes("mail not sent"));
    expect(failure).toBeDefined();
    expect(JSON.parse(failure!)).toMatchObject({ mail: "activation", userId: row!.id, level: 50 });
    expect(leakingLogLines(api, [password, session])).toEqual([]);
  });
});
