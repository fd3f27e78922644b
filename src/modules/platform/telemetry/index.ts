// The telemetry module's public entry for server code: what the roof's GET /metrics route uses. Whatever is not
// exported here is private to the module; dependency-cruiser enforces it.
export { METRICS_CONTENT_TYPE, renderMetrics } from './server/exposition.ts';
export { scrapeRefusal } from './server/scrape-access.ts';
