// Which live addresses the second read asks "what is in force here" for: those covered by a declared address-setting
// match whose value at the match differs from the declaration (the plan will write there, and the hazards weigh what
// that does to the queues behind them). None: the read stays one POST.
import type { ConfigSnapshot } from '@/modules/platform/broker/index.ts';
import type { ConfigDocument } from '../model/document.ts';
import { compareAddressSetting, matches } from '../plan/index.ts';

export function coveredAddresses(
  document: ConfigDocument,
  first: Pick<ConfigSnapshot, 'addressSettings' | 'addresses'>,
): string[] {
  // "Differs" as the plan means it (plan/compare.ts): a match not read yet, or a declared field with another value.
  const changing = document.addressSettings.filter((item) => {
    const live = first.addressSettings.get(item.match);
    return !live || compareAddressSetting(item, live).length > 0;
  });
  if (changing.length === 0) return [];
  return first.addresses.filter(
    (address) =>
      !address.startsWith('activemq.') &&
      !address.startsWith('$sys.') &&
      changing.some((item) => matches(item.match, address)),
  );
}
