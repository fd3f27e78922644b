// Where the queue screens live. Queue names may hold any character, so the name is one encoded path segment.
export const queuesPath = (clusterId: string) => `/clusters/${clusterId}/queues`;

export const queuePath = (clusterId: string, queueName: string) =>
  `${queuesPath(clusterId)}/${encodeURIComponent(queueName)}`;
