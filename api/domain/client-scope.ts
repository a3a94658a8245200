import { AsyncLocalStorage } from "node:async_hooks";

export type Client = { ip: string };

/** The client of the request being handled, for work deep in the domain (the hash queue takes turns by it). */
export const clientScope = new AsyncLocalStorage<Client>();

export function currentClient(): Client | undefined {
  return clientScope.getStore();
}
