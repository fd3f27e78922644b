import { IconMailX, IconStack2 } from '@tabler/icons-react';
import { copyText } from '@/ui/parts/copy-text.ts';
import { defineModuleUi, type RowTarget } from '@/ui/slots/contribution-types.ts';
import { ClusterQueuesSummary } from './cluster-queues-summary.tsx';
import { QueueSelectionPanel } from './queue-selection.tsx';
import { queuePath } from './queue-paths.ts';

const detailOf = (target: { clusterId?: string; key: string }) => queuePath(target.clusterId ?? '', target.key);

/** The queue page with one operation's dialog open (queue-operations.tsx reads `?operate=`). */
const operate = (operation: string) => (target: RowTarget) => `${detailOf(target)}?operate=${operation}`;
/** A row of the grid (or any table of queues) says whether it is paused; unknown counts as running. */
const pausedOf = (target: RowTarget) => (target.row as { paused?: unknown } | null)?.paused === true;

export const queuesUi = defineModuleUi({
  moduleId: 'queues',
  routes: ['/queues', '/clusters/{clusterId}/queues', '/dead-letters'],
  navigation: [
    { group: 'messaging', label: 'Queues', href: '/queues', icon: IconStack2, order: 10 },
    { group: 'messaging', label: 'Dead letters', href: '/dead-letters', icon: IconMailX, order: 15 },
  ],
  contributions: [
    { slot: 'queue.link', id: 'queue-detail', href: detailOf },
    { slot: 'queue.actions', id: 'open', section: 'Open', label: 'Open queue', href: detailOf },
    {
      slot: 'queue.actions',
      id: 'copy-name',
      section: 'Copy',
      label: 'Copy name',
      run: async (target) => {
        await copyText(target.key);
        return `Copied ${target.key}`;
      },
    },
    // The queue page's Operate menu, one link per operation: the page previews, confirms and gates it (writes off on
    // the cluster: the page says why instead). A row menu cannot hide an item per row, so Retry is on every row and
    // the page explains when the queue is not a dead-letter queue.
    { slot: 'queue.actions', id: 'purge', section: 'Operate', label: 'Purge…', href: operate('purge') },
    {
      slot: 'queue.actions',
      id: 'delete-messages',
      section: 'Operate',
      label: 'Delete messages…',
      href: operate('delete-messages'),
    },
    {
      slot: 'queue.actions',
      id: 'move-messages',
      section: 'Operate',
      label: 'Move messages…',
      href: operate('move-messages'),
    },
    {
      slot: 'queue.actions',
      id: 'pause-resume',
      section: 'Operate',
      label: 'Pause or resume…',
      href: (target) => operate(pausedOf(target) ? 'resume' : 'pause')(target),
    },
    { slot: 'queue.actions', id: 'retry', section: 'Operate', label: 'Retry dead letters…', href: operate('retry') },
    {
      slot: 'queue.actions',
      id: 'delete-queue',
      section: 'Destroy',
      label: 'Delete queue…',
      href: operate('delete-queue'),
    },
    { slot: 'queues.selection', id: 'selection-names', component: QueueSelectionPanel },
    { slot: 'cluster.header', id: 'queues-summary', order: 20, component: ClusterQueuesSummary },
  ],
});
