import { IconStack2 } from '@tabler/icons-react';
import { copyText } from '@/ui/parts/copy-text.ts';
import { defineModuleUi } from '@/ui/slots/contribution-types.ts';
import { ClusterQueuesSummary } from './cluster-queues-summary.tsx';
import { QueueSelectionPanel } from './queue-selection.tsx';
import { queuePath } from './queue-paths.ts';

const detailOf = (target: { clusterId?: string; key: string }) => queuePath(target.clusterId ?? '', target.key);

export const queuesUi = defineModuleUi({
  moduleId: 'queues',
  routes: ['/queues', '/clusters/{clusterId}/queues'],
  navigation: [{ group: 'messaging', label: 'Queues', href: '/queues', icon: IconStack2, order: 10 }],
  contributions: [
    { slot: 'queue.link', id: 'queue-detail', href: detailOf },
    { slot: 'queue.actions', id: 'open', section: 'Open', label: 'Open queue', href: detailOf },
    {
      slot: 'queue.actions',
      id: 'copy-name',
      section: 'Copy',
      label: 'Copy name',
      run: (target) => void copyText(target.key),
    },
    { slot: 'queues.selection', id: 'selection-names', component: QueueSelectionPanel },
    { slot: 'cluster.header', id: 'queues-summary', order: 20, component: ClusterQueuesSummary },
  ],
});
