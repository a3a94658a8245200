import { isIP } from "node:net";
import type { NextFunction, Request, Response } from "express";
import { clientIpHeader } from "#contract/http";
import { clientScope, type Client } from "../domain/client-scope";

declare module "express-serve-static-core" {
  interface Locals {
    clientIp: string;
  }
}

/**
 * Who is asking: the client's IP for limits and geo. web, the only public origin, sends the
 * visitor's IP as X-Client-IP; the api believes it only from a peer that `trust proxy` trusts
 * (loopback by default, TRUST_PROXY in a scale-out), otherwise the connection's own address counts.
 */
export function clientOf(req: Request): Client {
  const peer = req.socket.remoteAddress ?? "";
  const trusts = req.app.get("trust proxy fn") as ((address: string, hop: number) => boolean) | undefined;
  const given = req.get(clientIpHeader)?.trim();
  if (given && isIP(given) && trusts?.(peer, 0)) return { ip: given };
  return { ip: peer };
}

export function clientContext(req: Request, res: Response, next: NextFunction): void {
  const client = clientOf(req);
  res.locals.clientIp = client.ip;
  clientScope.run(client, next);
}
