export const eventsPath = (clusterId: string) => `/clusters/${clusterId}/events`;
