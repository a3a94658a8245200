import { randomBytes } from "node:crypto";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { writeFileAtomically } from "../atomic-file";

/** One text message: the number in E.164 (+31612345678) and its text. */
export type Sms = { to: string; text: string };

/**
 * Sends text messages (the direct debit code). The offline default writes each message to
 * DATA_DIR/sms, as mail goes to DATA_DIR/mail; MessageBird is the real gateway (SMS_PROVIDER=messagebird).
 * `send` throws when the message was not accepted: the caller tells the member to try again.
 */
export interface SmsSender {
  readonly id: "files" | "messagebird";
  send(sms: Sms): Promise<void>;
}

/** Each message becomes DATA_DIR/sms/<time>-<number>-<random>.txt: the number on the first line, then the text. */
export function fileSms(dataDir: string): SmsSender {
  const dir = path.resolve(dataDir, "sms");
  return {
    id: "files",
    async send(sms) {
      await mkdir(dir, { recursive: true });
      const stamp = new Date().toISOString().replace(/:/g, "-");
      await writeFileAtomically(path.join(dir, `${stamp}-${sms.to.replace(/\D/g, "")}-${randomBytes(3).toString("hex")}.txt`), `To: ${sms.to}\n\n${sms.text}\n`);
    },
  };
}

export type MessageBirdOptions = { accessKey: string; originator: string; baseUrl: string; timeoutMs?: number };

/**
 * MessageBird's SMS API (https://developers.messagebird.com/api/sms-messaging/#send-outbound-sms):
 * POST {baseUrl}/messages with `Authorization: AccessKey <key>` and JSON {originator, recipients, body};
 * 201 when accepted, 4xx with {errors: [{code, description, parameter}]} otherwise.
 */
export function messageBirdSms(options: MessageBirdOptions): SmsSender {
  return {
    id: "messagebird",
    async send(sms) {
      const response = await fetch(`${options.baseUrl.replace(/\/$/, "")}/messages`, {
        method: "POST",
        headers: { Authorization: `AccessKey ${options.accessKey}`, "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ originator: options.originator, recipients: [sms.to.replace(/^\+/, "")], body: sms.text }),
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
      if (response.status === 201 || response.status === 200) return;
      let detail = "";
      try {
        const body = (await response.json()) as { errors?: { code?: number; description?: string }[] };
        detail = (body.errors ?? []).map((e) => `${e.code ?? "?"} ${e.description ?? ""}`.trim()).join("; ");
      } catch {
        // Not JSON: the status says enough.
      }
      throw new Error(`MessageBird refused the message: HTTP ${response.status}${detail ? ` (${detail.slice(0, 200)})` : ""}`);
    },
  };
}

export function createSmsSender(config: { SMS_PROVIDER: "files" | "messagebird"; MESSAGEBIRD_ACCESS_KEY?: string; SMS_ORIGINATOR: string; MESSAGEBIRD_URL: string; DATA_DIR: string }): SmsSender {
  if (config.SMS_PROVIDER === "messagebird") {
    if (!config.MESSAGEBIRD_ACCESS_KEY) throw new Error("Invalid api configuration: SMS_PROVIDER=messagebird needs MESSAGEBIRD_ACCESS_KEY");
    return messageBirdSms({ accessKey: config.MESSAGEBIRD_ACCESS_KEY, originator: config.SMS_ORIGINATOR, baseUrl: config.MESSAGEBIRD_URL });
  }
  return fileSms(config.DATA_DIR);
}
