import { IconRoute } from '@tabler/icons-react';
import { defineModuleUi } from '@/ui/slots/contribution-types.ts';
import { divertActions } from './diverts/divert-actions.ts';
import { routingHomePath } from './routing-paths.ts';

export const routingUi = defineModuleUi({
  moduleId: 'routing',
  routes: [routingHomePath, '/clusters/{clusterId}/routing'],
  navigation: [{ group: 'messaging', label: 'Routing', href: routingHomePath, icon: IconRoute, order: 35 }],
  contributions: [...divertActions],
});
