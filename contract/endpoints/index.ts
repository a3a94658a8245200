import { account } from "./account";
import { chat } from "./chat";
import type { Endpoint, EndpointGroup } from "./endpoint";
import { members } from "./members";
import { payments } from "./payments";
import { site } from "./site";
import { staff } from "./staff";

/*
 * Every api endpoint, declared once (contract/endpoints/endpoint.ts says what an entry holds and who reads it). The
 * groups are the OpenAPI document's tags; `endpoints` names each entry for the api's handlers and web's calls.
 */

export const endpointGroups: readonly EndpointGroup[] = [site, account, members, chat, payments, staff];

export const endpoints = {
  ...site.endpoints,
  ...account.endpoints,
  ...members.endpoints,
  ...chat.endpoints,
  ...payments.endpoints,
  ...staff.endpoints,
} satisfies Record<string, Endpoint>;

export type EndpointName = keyof typeof endpoints;

export type { Endpoint, EndpointGroup } from "./endpoint";
