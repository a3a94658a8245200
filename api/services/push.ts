import { createECDH, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { Agent } from "node:https";
import path from "node:path";
import webpush, { WebPushError } from "web-push";
import { publicOnlyLookup, pushEndpointRefusal, type PushEndpointPolicy } from "./push-endpoint";
import { writeFileAtomically } from "./atomic-file";

/*
 * Web push: the sending side behind an interface, as docs/architecture.md wants of external services.
 * - webPushSender: the real adapter (the web-push library: VAPID, RFC 8291 aes128gcm), the default, since
 *   a push needs no account: the browser chose its push service, and the endpoint says where it is.
 * - filePushSender: the offline adapter (PUSH_DELIVERY=files): each push is written as JSON under
 *   DATA_DIR/push, as mails go to DATA_DIR/mail without SMTP, for development on a machine with no network.
 */

/** A VAPID key pair as base64url of the raw P-256 keys (65-byte uncompressed point, 32-byte scalar). */
export type VapidKeys = { publicKey: string; privateKey: string };

/** What the service worker (/sw-push.js) gets: the notification's texts and the page a click opens. */
export type PushPayload = { title: string; body: string; url: string; tag: string };

/** A stored subscription (PushSubscription.toJSON() of the member's browser). */
export type PushTarget = { endpoint: string; p256dh: string; auth: string };

export type PushOptions = { vapid: VapidKeys & { subject: string }; ttlSeconds: number; urgency: "normal" | "high" };

/**
 * The outcome of one push: sent; `gone` (the push service answered 404 or 410: the subscription is dead and
 * is to be removed); `refused` (the endpoint is no public push service, api/services/push-endpoint.ts: removed
 * too); or failed, to be tried again later (network errors, 429, 5xx, a name that does not resolve now).
 */
export type PushOutcome =
  | { kind: "sent"; status: number }
  | { kind: "gone"; status: number }
  | { kind: "refused"; error: string }
  | { kind: "failed"; status: number | null; error: string };

export type PushSender = { send: (target: PushTarget, payload: PushPayload, options: PushOptions) => Promise<PushOutcome> };

/**
 * The web-push library, to public push services only: the endpoint is checked before each send and the
 * connection's own DNS lookup refuses non-public addresses. `ca` and `endpoints` are for a test's own push
 * service (its certificate, its loopback origin); production passes neither.
 */
export function webPushSender(options: { ca?: string; timeoutMs?: number; endpoints?: PushEndpointPolicy } = {}): PushSender {
  const agent = new Agent({ lookup: publicOnlyLookup(options.endpoints), ...(options.ca ? { ca: options.ca } : {}) });
  return {
    async send(target, payload, push) {
      const refusal = await pushEndpointRefusal(target.endpoint, options.endpoints);
      if (refusal === "unresolved") return { kind: "failed", status: null, error: "the push service's host name did not resolve" };
      if (refusal) return { kind: "refused", error: `not a public push service (${refusal})` };
      try {
        // Sent to the URL as serialised by the check's parser: web-push's own parser then reads the same host.
        const endpoint = new URL(target.endpoint).href;
        const result = await webpush.sendNotification({ endpoint, keys: { p256dh: target.p256dh, auth: target.auth } }, JSON.stringify(payload), {
          vapidDetails: { subject: push.vapid.subject, publicKey: push.vapid.publicKey, privateKey: push.vapid.privateKey },
          TTL: push.ttlSeconds,
          urgency: push.urgency,
          contentEncoding: "aes128gcm",
          timeout: options.timeoutMs ?? 15_000,
          agent,
        });
        return { kind: "sent", status: result.statusCode };
      } catch (error) {
        if (error instanceof WebPushError) {
          if (error.statusCode === 404 || error.statusCode === 410) return { kind: "gone", status: error.statusCode };
          return { kind: "failed", status: error.statusCode, error: `push service answered ${error.statusCode}` };
        }
        return { kind: "failed", status: null, error: (error instanceof Error ? error.message : String(error)).slice(0, 300) };
      }
    },
  };
}

/** The offline adapter: writes each push (payload and the endpoint's origin, never the keys) to `dir`. */
export function filePushSender(dir: string): PushSender {
  return {
    async send(target, payload) {
      await mkdir(dir, { recursive: true });
      const stamp = new Date().toISOString().replace(/:/g, "-");
      const file = path.join(dir, `${stamp}-${randomBytes(4).toString("hex")}.json`);
      await writeFileAtomically(file, JSON.stringify({ pushService: new URL(target.endpoint).origin, payload }, null, 2));
      return { kind: "sent", status: 201 };
    },
  };
}

export function createPushSender(options: { delivery: "web-push" | "files"; dataDir: string }): PushSender {
  return options.delivery === "files" ? filePushSender(path.resolve(options.dataDir, "push")) : webPushSender();
}

/**
 * The deployment's VAPID keys, for sites without a pair of their own (when PUSH_KEYLESS_SITES is on):
 * VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY when set, else a pair generated once into DATA_DIR/vapid.json and
 * read from there afterwards (a new pair would orphan every subscription made with the old one).
 */
export function deploymentVapidKeys(options: { publicKey?: string; privateKey?: string; dataDir: string }): VapidKeys {
  if (options.publicKey && options.privateKey) return { publicKey: options.publicKey, privateKey: padPrivateKey(options.privateKey) };
  const file = path.resolve(options.dataDir, "vapid.json");
  if (existsSync(file)) {
    const stored = JSON.parse(readFileSync(file, "utf8")) as Partial<VapidKeys>;
    if (typeof stored.publicKey === "string" && typeof stored.privateKey === "string") return { publicKey: stored.publicKey, privateKey: padPrivateKey(stored.privateKey) };
  }
  const keys = generateVapidKeys();
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
  return keys;
}

export function generateVapidKeys(): VapidKeys {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  return { publicKey: ecdh.getPublicKey().toString("base64url"), privateKey: padPrivateKey(ecdh.getPrivateKey().toString("base64url")) };
}

/** web-push wants the private scalar as exactly 32 bytes; a key with leading zero bytes may be stored shorter. */
export function padPrivateKey(privateKey: string): string {
  const raw = Buffer.from(privateKey, "base64url");
  if (raw.length >= 32) return privateKey;
  return Buffer.concat([Buffer.alloc(32 - raw.length), raw]).toString("base64url");
}

/** The VAPID subject (a contact for the push service): VAPID_SUBJECT, else the site's support address. */
export function vapidSubject(configured: string | undefined, site: { supportEmail: string; domain: string }): string {
  if (configured) return configured;
  return /^[^\s@]+@[^\s@]+$/.test(site.supportEmail) ? `mailto:${site.supportEmail}` : `mailto:noreply@${site.domain}`;
}
