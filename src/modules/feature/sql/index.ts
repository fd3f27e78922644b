// The sql module's public entry for server code: the only file other modules and the roof may import from it
// (besides module.ts). Whatever is not exported here is private to the module; dependency-cruiser enforces it.
// The live tail's HTTP edge (server-sent events), which the roof's route file serves.
export { createTailHandler } from './server/tail/tail-handler.ts';
// The request-reply correlator's question: which addresses a capture tap feeds (the rest it samples).
export { capturedAddresses } from './server/subscriptions.ts';
