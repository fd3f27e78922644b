// Alert channels reach no loopback or private address unless alerting.allowed-networks lists it: a test whose
// channels send to its own listeners on 127.0.0.1 lists it first, through the settings API, as an operator would.
import { expect, vi } from 'vitest';

const CHANNEL_NETWORKS_KEY = 'alerting.allowed-networks';

/**
 * Sets alerting.allowed-networks with the test's own REST caller (one that answers `{ status }` is checked for 200;
 * one that throws on a refusal is trusted), then waits until `settings` (the sending runtime's) reads it.
 */
export async function allowChannelNetworks(
  call: (method: string, path: string, body?: unknown) => Promise<unknown>,
  value = '127.0.0.1',
  settings?: { string(key: string): string },
): Promise<void> {
  const answer = await call('PUT', `/settings/${CHANNEL_NETWORKS_KEY}`, { value });
  if (answer && typeof answer === 'object' && 'status' in answer) expect(answer).toMatchObject({ status: 200 });
  if (settings) await vi.waitFor(() => expect(settings.string(CHANNEL_NETWORKS_KEY)).toBe(value), { timeout: 10_000 });
}
