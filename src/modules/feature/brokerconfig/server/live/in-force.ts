// Which live addresses the second read asks "what is in force here" for: those covered by a declared address-setting
// match whose value at the match differs from the declaration (the plan will write there, and the hazards weigh what
// that does to the queues behind them). None: the read stays one POST.
import type { ConfigSnapshot } from '@/modules/platform/broker/index.ts';
import type { ConfigDocument } from '../model/document.ts';
import { matches } from '../plan/index.ts';

const numeric = (value: unknown) =>
  typeof value === 'string' && value !== '' && !Number.isNaN(Number(value)) ? Number(value) : value;

function differs(declared: Record<string, unknown>, live: Readonly<Record<string, unknown>> | undefined): boolean {
  if (!live) return true;
  return Object.entries(declared).some(([field, value]) => numeric(live[field]) !== numeric(value));
}

export function coveredAddresses(
  document: ConfigDocument,
  first: Pick<ConfigSnapshot, 'addressSettings' | 'addresses'>,
): string[] {
  const changing = document.addressSettings.filter((item) =>
    differs(item.settings, first.addressSettings.get(item.match)),
  );
  if (changing.length === 0) return [];
  return first.addresses.filter(
    (address) =>
      !address.startsWith('activemq.') &&
      !address.startsWith('$sys.') &&
      changing.some((item) => matches(item.match, address)),
  );
}
