import { IconArrowsExchange } from '@tabler/icons-react';
import { defineModuleUi } from '@/ui/slots/contribution-types.ts';
import { rrHomePath } from './rr-paths.ts';

export const rrUi = defineModuleUi({
  moduleId: 'rr',
  routes: [rrHomePath, '/clusters/{clusterId}/rr'],
  navigation: [{ group: 'messaging', label: 'Request-reply', href: rrHomePath, icon: IconArrowsExchange, order: 40 }],
});
