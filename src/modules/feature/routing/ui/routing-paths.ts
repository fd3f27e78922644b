// Where the routing screens live: the home (choose a cluster) and a cluster's graph, its tab and filter in the URL.
export const routingHomePath = '/routing';

export const routingPath = (clusterId: string) => `/clusters/${encodeURIComponent(clusterId)}/routing`;
