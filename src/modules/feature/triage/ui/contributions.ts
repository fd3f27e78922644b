import { IconFirstAidKit } from '@tabler/icons-react';
import { defineModuleUi } from '@/ui/slots/contribution-types.ts';
import { FleetHome } from './fleet-home.tsx';

declare module '@/ui/slots/contribution-types.ts' {
  interface ModuleSlotProps {
    /** Marks on a cluster's card of the fleet home, beside its health (alerting: how many alerts fire there). */
    'fleet.cluster.badges': { readonly clusterId: string };
  }
}

export const triageUi = defineModuleUi({
  moduleId: 'triage',
  routes: ['/triage'],
  navigation: [{ group: 'observe', label: 'Triage', href: '/triage', icon: IconFirstAidKit, order: 5 }],
  contributions: [{ slot: 'home.empty', id: 'fleet-home', order: 0, component: FleetHome }],
});
