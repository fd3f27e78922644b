// Delivery attempts send no stream signal, so the channels list rereads its last deliveries on a clock of its own:
// every 10 s, or sooner when the stream is down and the list polls anyway.
const DELIVERY_POLL_MS = 10_000;

export function deliveryPollInterval(liveInterval: number | false): number {
  return liveInterval === false ? DELIVERY_POLL_MS : Math.min(liveInterval, DELIVERY_POLL_MS);
}
