// Where the resources screens live. Names and ids may hold any character, so each is one encoded path segment.
export type ResourceListKind = 'addresses' | 'consumers' | 'producers' | 'sessions' | 'connections';

export const resourceListPath = (clusterId: string, kind: ResourceListKind, filters: Record<string, string> = {}) => {
  const query = new URLSearchParams(filters).toString();
  return `/clusters/${clusterId}/${kind}${query ? `?${query}` : ''}`;
};

export const addressPath = (clusterId: string, address: string) =>
  `/clusters/${clusterId}/addresses/${encodeURIComponent(address)}`;

export const connectionPath = (clusterId: string, connectionId: string, nodeId?: string) =>
  `/clusters/${clusterId}/connections/${encodeURIComponent(connectionId)}${nodeId ? `?node=${encodeURIComponent(nodeId)}` : ''}`;

export const nodePath = (clusterId: string, nodeId: string) =>
  `/clusters/${clusterId}/nodes/${encodeURIComponent(nodeId)}`;
