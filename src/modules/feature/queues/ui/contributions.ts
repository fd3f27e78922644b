import { IconMailX, IconStack2 } from '@tabler/icons-react';
import { copyText } from '@/ui/parts/copy-text.ts';
import { defineModuleUi, type RowTarget } from '@/ui/slots/contribution-types.ts';
import { ClusterQueuesSummary } from './cluster-queues-summary.tsx';
import { useQueuePaletteSearch } from './queue-palette-search.ts';
import { QueueSelectionPanel } from './queue-selection.tsx';
import { queuePath } from './queue-paths.ts';

const detailOf = (target: { clusterId?: string; key: string }) => queuePath(target.clusterId ?? '', target.key);

/** The queue page with one operation's dialog open (queue-operations.tsx reads `?operate=`). */
const operate = (operation: string) => (target: RowTarget) => `${detailOf(target)}?operate=${operation}`;
/** Whether a row says its queue is paused: true, false, or null and absent when not known (nodes disagree). */
const pausedOf = (target: RowTarget) => (target.row as { paused?: boolean | null } | null)?.paused;
/** A grid row says whether the brokers' settings name its address as dead-letter or expiry; unknown offers Retry. */
const deadLetterOf = (target: RowTarget) => (target.row as { deadLetter?: unknown } | null)?.deadLetter !== false;

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
    // the cluster: the page says why instead). Pause or Resume as the row stands (both when it does not say); Retry
    // on dead-letter queues (and on rows that do not say, where the page explains when the queue is not one).
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
      id: 'pause',
      section: 'Operate',
      label: 'Pause…',
      href: operate('pause'),
      visible: (target) => pausedOf(target) !== true,
    },
    {
      slot: 'queue.actions',
      id: 'resume',
      section: 'Operate',
      label: 'Resume…',
      href: operate('resume'),
      visible: (target) => pausedOf(target) !== false,
    },
    {
      slot: 'queue.actions',
      id: 'retry',
      section: 'Operate',
      label: 'Retry dead letters…',
      href: operate('retry'),
      visible: deadLetterOf,
    },
    {
      slot: 'queue.actions',
      id: 'delete-queue',
      section: 'Destroy',
      label: 'Delete queue…',
      href: operate('delete-queue'),
    },
    { slot: 'queues.selection', id: 'selection-names', component: QueueSelectionPanel },
    { slot: 'cluster.header', id: 'queues-summary', order: 20, component: ClusterQueuesSummary },
    { slot: 'palette.search', id: 'queues', order: 20, title: 'Queues', useSearch: useQueuePaletteSearch },
  ],
});
