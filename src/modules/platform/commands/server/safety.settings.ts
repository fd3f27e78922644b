// The bulk cap of destructive message operations (spec: Broker writes, safety rule 3): enforced by the server.
import { integerSetting } from '@/modules/kernel/plugin/index.ts';

const BULK_CAP_KEY = 'safety.bulk-cap';

export const bulkCapSetting = integerSetting({
  key: BULK_CAP_KEY,
  description:
    'A destructive message operation (purge, delete, move, retry, queue delete) whose dry-run count is over this is refused with 422 bulk-cap-exceeded unless the caller passes override=true.',
  defaultValue: 1_000,
  min: 1,
  max: 100_000_000,
});
