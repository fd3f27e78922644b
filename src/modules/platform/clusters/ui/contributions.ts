import { IconServer2 } from '@tabler/icons-react';
import { defineModuleUi } from '@/ui/slots/contribution-types.ts';
import { useClusterPaletteSearch } from './cluster-palette-search.ts';
import { HomeClusters } from './home-clusters.tsx';

export const clustersUi = defineModuleUi({
  moduleId: 'clusters',
  routes: ['/clusters'],
  navigation: [{ group: 'observe', label: 'Clusters', href: '/clusters', icon: IconServer2, order: 10 }],
  contributions: [
    { slot: 'home.empty', id: 'clusters-home', component: HomeClusters },
    // The palette's sections after its Screens: Clusters (10), then Queues (20).
    { slot: 'palette.search', id: 'clusters', order: 10, title: 'Clusters', useSearch: useClusterPaletteSearch },
  ],
});
