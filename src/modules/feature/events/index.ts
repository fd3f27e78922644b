// The events module's public entry for server code: the only file other modules may import from it (besides
// module.ts). Whatever is not exported here is private to the module; dependency-cruiser enforces it.
export { slowConsumerQueues } from './server/slow-consumers.ts';
// How long broker events are kept: request-reply correlations (feature/rr) are kept as long.
export { EVENTS_SETTINGS } from './server/events.settings.ts';
// Broker events for runtime plugins (plugins module), governed, never in clear.
export { newestGovernedEvents } from './server/events-for-plugins.ts';
