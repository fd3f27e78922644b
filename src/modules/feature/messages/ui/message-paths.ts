// Where the message screens live: below their queue, whose name is one encoded path segment.
export const queuePagePath = (clusterId: string, queueName: string) =>
  `/clusters/${clusterId}/queues/${encodeURIComponent(queueName)}`;

export const messagesPath = (clusterId: string, queueName: string) => `${queuePagePath(clusterId, queueName)}/messages`;
