// One path segment as a router hands it over, decoded once. Used wherever a segment becomes a name (the REST edge's
// path parameters, the console's queue route, the request guard's checks), so they cannot decode differently.

/** `orders%2Feu` → `orders/eu`; a segment that is not valid percent-encoding is taken as written. */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
