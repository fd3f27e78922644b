// Where the broker configuration screens live: the home that picks a cluster, and a cluster's configuration (its tab
// in the query string, so a link to History or Recommended can be shared).
export const configHomePath = '/config';

export const configPath = (clusterId: string, tab?: string) =>
  `/clusters/${encodeURIComponent(clusterId)}/config${tab ? `?tab=${encodeURIComponent(tab)}` : ''}`;
