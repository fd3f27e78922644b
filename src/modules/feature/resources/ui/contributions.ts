import { IconAddressBook, IconPlugConnected, IconSend, IconUsers, IconArrowsExchange } from '@tabler/icons-react';
import { copyText } from '@/ui/parts/copy-text.ts';
import { defineModuleUi, type RowTarget } from '@/ui/slots/contribution-types.ts';
import { ClusterNodeFactsPanel } from './cluster-node-facts-panel.tsx';
import { NodeMark } from './node-mark.tsx';
import { QueueConsumersPanel } from './queue-consumers-panel.tsx';
import { addressPath, connectionPath, resourceListPath } from './resource-paths.ts';

/** A field of the row (tables key rows by node and id, so the key alone is not the broker's id or name). */
const field = (target: RowTarget, name: 'id' | 'name' | 'connectionId' | 'nodeId' | 'remoteAddress'): string => {
  const value = (target.row as Record<string, unknown> | null)?.[name];
  return typeof value === 'string' ? value : '';
};
/** The connection a row is on (or is), and its node: a connection id may repeat across nodes. */
const connectionOf = (target: RowTarget) =>
  connectionPath(target.clusterId ?? '', field(target, 'connectionId') || field(target, 'id'), field(target, 'nodeId'));
const addressOf = (target: RowTarget) => field(target, 'name') || target.key;
const copy = (label: string, value: (target: RowTarget) => string) => ({
  section: 'Copy' as const,
  label,
  run: async (target: RowTarget) => {
    const text = value(target);
    await copyText(text);
    return `Copied ${text}`;
  },
});
/** A resource page with one of its operations open. */
const withOperate = (path: string, operation: string) => `${path}${path.includes('?') ? '&' : '?'}operate=${operation}`;
const remoteAddressOf = (target: RowTarget) => field(target, 'remoteAddress');

export const resourcesUi = defineModuleUi({
  moduleId: 'resources',
  routes: [
    '/addresses',
    '/consumers',
    '/producers',
    '/sessions',
    '/connections',
    '/clusters/{clusterId}/addresses',
    '/clusters/{clusterId}/consumers',
    '/clusters/{clusterId}/producers',
    '/clusters/{clusterId}/sessions',
    '/clusters/{clusterId}/connections',
    '/clusters/{clusterId}/nodes',
  ],
  navigation: [
    { group: 'resources', label: 'Addresses', href: '/addresses', icon: IconAddressBook, order: 10 },
    { group: 'resources', label: 'Consumers', href: '/consumers', icon: IconUsers, order: 20 },
    { group: 'resources', label: 'Producers', href: '/producers', icon: IconSend, order: 30 },
    { group: 'resources', label: 'Sessions', href: '/sessions', icon: IconArrowsExchange, order: 40 },
    { group: 'resources', label: 'Connections', href: '/connections', icon: IconPlugConnected, order: 50 },
  ],
  contributions: [
    { slot: 'address.link', id: 'address-detail', href: (target) => addressPath(target.clusterId ?? '', target.key) },
    {
      slot: 'connection.link',
      id: 'connection-detail',
      href: (target) => {
        const row = target.row as { nodeId?: string } | null;
        return connectionPath(target.clusterId ?? '', target.key, row?.nodeId);
      },
    },
    // A session has no page of its own: it opens on its connection, which lists it with its consumers.
    { slot: 'session.link', id: 'session-connection', href: connectionOf },
    { slot: 'consumer.actions', id: 'open-connection', section: 'Open', label: 'Open connection', href: connectionOf },
    {
      slot: 'consumer.actions',
      id: 'same-host',
      section: 'Open',
      label: 'Consumers from this host',
      href: (target) =>
        resourceListPath(target.clusterId ?? '', 'consumers', {
          remoteAddress: remoteAddressOf(target).replace(/^\//, '').replace(/:\d+$/, ''),
        }),
    },
    { slot: 'consumer.actions', id: 'copy-remote', ...copy('Copy client address', remoteAddressOf) },
    { slot: 'producer.actions', id: 'open-connection', section: 'Open', label: 'Open connection', href: connectionOf },
    { slot: 'producer.actions', id: 'copy-remote', ...copy('Copy client address', remoteAddressOf) },
    { slot: 'session.actions', id: 'open-connection', section: 'Open', label: 'Open connection', href: connectionOf },
    { slot: 'connection.actions', id: 'open', section: 'Open', label: 'Open connection', href: connectionOf },
    {
      slot: 'connection.actions',
      id: 'consumers',
      section: 'Open',
      label: 'Its consumers',
      href: (target) => resourceListPath(target.clusterId ?? '', 'consumers', { connection: field(target, 'id') }),
    },
    { slot: 'connection.actions', id: 'copy-id', ...copy('Copy connection id', (target) => field(target, 'id')) },
    // Writes open their dialog on the resource's page (`?operate=`), which previews, confirms and gates them.
    {
      slot: 'connection.actions',
      id: 'close',
      section: 'Operate',
      label: 'Close connection…',
      href: (target) => withOperate(connectionOf(target), 'close'),
    },
    { slot: 'connection.actions', id: 'copy-remote', ...copy('Copy client address', remoteAddressOf) },
    {
      slot: 'address.actions',
      id: 'open',
      section: 'Open',
      label: 'Open address',
      href: (target) => addressPath(target.clusterId ?? '', addressOf(target)),
    },
    {
      slot: 'address.actions',
      id: 'producers',
      section: 'Open',
      label: 'Its producers',
      href: (target) => resourceListPath(target.clusterId ?? '', 'producers', { address: addressOf(target) }),
    },
    { slot: 'address.actions', id: 'copy-name', ...copy('Copy name', addressOf) },
    {
      slot: 'address.actions',
      id: 'delete',
      section: 'Destroy',
      label: 'Delete address…',
      href: (target) => withOperate(addressPath(target.clusterId ?? '', addressOf(target)), 'delete'),
    },
    {
      slot: 'queue.actions',
      id: 'consumers',
      section: 'Open',
      label: 'Its consumers',
      href: (target) => resourceListPath(target.clusterId ?? '', 'consumers', { queue: target.key }),
    },
    { slot: 'queue.detail.panels', id: 'queue-consumers', order: 5, component: QueueConsumersPanel },
    { slot: 'cluster.header', id: 'node-facts', order: 30, component: ClusterNodeFactsPanel },
    { slot: 'topology.node.marks', id: 'node-facts', component: NodeMark },
  ],
});
