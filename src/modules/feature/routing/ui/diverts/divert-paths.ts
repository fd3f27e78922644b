// Where a divert's actions lead: the routing screen's Diverts tab (`?tab=diverts`), with the remove dialog open for
// one divert (`operate=remove-divert&divert=<name>`), and the resources module's page of an address (its route, not
// its code: routing does not depend on resources).
import { routingPath } from '../routing-paths.ts';

export const DIVERTS_TAB = 'diverts';
export const REMOVE_OPERATION = 'remove-divert';

const divertsTabPath = (clusterId: string, extra: Record<string, string> = {}) =>
  `${routingPath(clusterId)}?${new URLSearchParams({ tab: DIVERTS_TAB, ...extra }).toString()}`;

export const removeDivertPath = (clusterId: string, divert: string) =>
  divertsTabPath(clusterId, { operate: REMOVE_OPERATION, divert });

export const addressPagePath = (clusterId: string, address: string) =>
  `/clusters/${encodeURIComponent(clusterId)}/addresses/${encodeURIComponent(address)}`;
