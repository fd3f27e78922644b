// The filters of the five resource lists: which the URL keeps (the list state's `filters`) and which of them get a
// field above the table. Filters kept without a field of their own arrive on links from other screens.
import type { FilterField } from './resource-filters.tsx';

const YES_NO = [
  { value: 'true', label: 'Yes' },
  { value: 'false', label: 'No' },
];
const PROTOCOLS = ['CORE', 'AMQP', 'OPENWIRE', 'MQTT', 'STOMP'].map((value) => ({ value, label: value }));
const ROUTING_TYPES = [
  { value: 'ANYCAST', label: 'Anycast' },
  { value: 'MULTICAST', label: 'Multicast' },
];
const SHOWN_HIDDEN = [
  { value: 'true', label: 'Shown' },
  { value: 'false', label: 'Hidden' },
];

const CLIENT_ADDRESS = { filter: 'remoteAddress', label: 'Client address' } as const;
const CONNECTION = { filter: 'connection', label: 'Connection', width: 140 } as const;
const NODE = { filter: 'node', label: 'Node' } as const;

// Address and session have no field: they arrive on links from other screens.
export const CONSUMER_FILTERS = ['queue', 'address', 'connection', 'session', 'remoteAddress', 'node', 'slow'] as const;
export const CONSUMER_FIELDS: FilterField<(typeof CONSUMER_FILTERS)[number]>[] = [
  { filter: 'queue', label: 'Queue' },
  CLIENT_ADDRESS,
  CONNECTION,
  NODE,
  { filter: 'slow', label: 'Slow', options: YES_NO, width: 100 },
];

export const PRODUCER_FILTERS = ['address', 'connection', 'session', 'remoteAddress', 'node'] as const;
export const PRODUCER_FIELDS: FilterField<(typeof PRODUCER_FILTERS)[number]>[] = [
  { filter: 'address', label: 'Address' },
  CLIENT_ADDRESS,
  CONNECTION,
  NODE,
];

export const SESSION_FILTERS = ['connection', 'node'] as const;
export const SESSION_FIELDS: FilterField<(typeof SESSION_FILTERS)[number]>[] = [CONNECTION, NODE];

export const CONNECTION_FILTERS = ['remoteAddress', 'node', 'protocol'] as const;
export const CONNECTION_FIELDS: FilterField<(typeof CONNECTION_FILTERS)[number]>[] = [
  CLIENT_ADDRESS,
  { filter: 'protocol', label: 'Protocol', options: PROTOCOLS, width: 130 },
  NODE,
];

export const ADDRESS_FILTERS = ['node', 'paging', 'internal', 'routingType'] as const;
export const ADDRESS_FIELDS: FilterField<(typeof ADDRESS_FILTERS)[number]>[] = [
  { filter: 'paging', label: 'Paging', options: YES_NO, width: 110 },
  { filter: 'routingType', label: 'Routing', options: ROUTING_TYPES, width: 130 },
  { filter: 'internal', label: 'Internal', options: SHOWN_HIDDEN, width: 110 },
  NODE,
];
