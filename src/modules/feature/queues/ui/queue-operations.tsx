'use client';
// The queue page's Operate menu: purge, delete or move messages (by a JMS selector), send dead letters back, pause
// or resume delivery, delete the queue. Each opens the operation dialog (dry run, per-node preview, confirmation,
// outcome, audit). The open operation is in the URL (`?operate=purge`), so a link can open it (the grid's row menu
// does). The cluster's capability ledger gates the menu: writes UNAVAILABLE disable every item with the reason, and a
// link to one says why instead of opening it; UNKNOWN keeps them enabled and says what is not confirmed.
import { Anchor, Box, Button, Checkbox, Group, Menu, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconChevronDown } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useState, type ReactNode } from 'react';
import { useTRPC, type RouterOutputs } from '@/ui/data/trpc.ts';
import { CapabilityNote, GateIcon, useCapabilityGate } from '@/modules/platform/clusters/ui.ts';
import {
  OperationDialog,
  formatCount,
  type CommandResult,
  type OperationSpec,
  type RunFlags,
} from '@/modules/platform/commands/ui.ts';
import { queuesPath } from './queue-paths.ts';

type Queue = RouterOutputs['queues']['get'];

const OPERATIONS = ['purge', 'delete-messages', 'move-messages', 'retry', 'pause', 'resume', 'delete-queue'] as const;
type OperationId = (typeof OPERATIONS)[number];

const isOperation = (value: string | null): value is OperationId =>
  value !== null && (OPERATIONS as readonly string[]).includes(value);

const MESSAGES = ['message', 'messages'] as const;
const messages = (count: number) => `${formatCount(count)} ${count === 1 ? 'message' : 'messages'}`;
const nodesWord = (count: number) => `${count} ${count === 1 ? 'node' : 'nodes'}`;
const actingNodes = (preview: CommandResult) =>
  nodesWord(preview.nodes.filter((node) => node.outcome === 'WOULD_APPLY').length);
const appliedNodes = (result: CommandResult) =>
  nodesWord(result.nodes.filter((node) => node.outcome === 'APPLIED').length);
/** "4 messages removed on 1 node". */
const messagesDone = (verb: string) => (result: CommandResult) =>
  `${messages(result.appliedCount)} ${verb} on ${appliedNodes(result)}`;

interface OperationProps {
  readonly clusterId: string;
  readonly queue: Queue;
  readonly onClose: () => void;
  /** What the capability ledger says is uncertain about writes on the cluster (CapabilityNote), if anything. */
  readonly notice: ReactNode;
}

/** The queue's operations all refresh the queue's numbers when done (the stream signal follows too). */
function useRun<Input>(call: (input: Input) => Promise<CommandResult>) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return async (input: Input & Pick<RunFlags, 'dryRun'>) => {
    const result = await call(input);
    if (!input.dryRun) await queryClient.invalidateQueries(trpc.queues.pathFilter());
    return result;
  };
}

function selectorInput(value: string, onChange: (value: string) => void, description: string) {
  return (
    <TextInput
      label="Filter (JMS selector)"
      placeholder="e.g. priority > 4 AND region = 'eu'"
      description={description}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
    />
  );
}

function PurgeOperation({ clusterId, queue, onClose, notice }: OperationProps) {
  const trpc = useTRPC();
  const run = useRun(useMutation(trpc.queues.purge.mutationOptions()).mutateAsync);
  const spec: OperationSpec = {
    title: `Purge ${queue.queueName}`,
    notice,
    description: 'Removes every message of the queue on every node that has it. Consumers keep their place.',
    parameters: '',
    ready: true,
    hold: { action: 'Purge', noun: MESSAGES },
    summary: (preview) => `${messages(preview.affectedCount)} on ${actingNodes(preview)} would be removed.`,
    done: messagesDone('removed'),
    run: (flags) => run({ clusterId, queueName: queue.queueName, ...flags }),
    auditTarget: queue.queueName,
  };
  return <OperationDialog spec={spec} onClose={onClose} />;
}

function DeleteMessagesOperation({ clusterId, queue, onClose, notice }: OperationProps) {
  const trpc = useTRPC();
  const run = useRun(useMutation(trpc.queues.deleteMessages.mutationOptions()).mutateAsync);
  const [filter, setFilter] = useState('');
  const selector = filter.trim();
  const spec: OperationSpec = {
    title: `Delete messages of ${queue.queueName}`,
    notice,
    description: 'Removes the messages that match a selector, evaluated by each broker over its whole copy.',
    form: selectorInput(filter, setFilter, 'Empty: every message of the queue'),
    parameters: selector,
    ready: true,
    hold: { action: 'Delete', noun: MESSAGES },
    summary: (preview) =>
      `${messages(preview.affectedCount)} ${selector ? `matching ${selector}` : '(every message)'} on ${actingNodes(preview)} would be removed.`,
    done: messagesDone('removed'),
    run: (flags) => run({ clusterId, queueName: queue.queueName, ...(selector ? { filter: selector } : {}), ...flags }),
    auditTarget: queue.queueName,
  };
  return <OperationDialog spec={spec} onClose={onClose} />;
}

/** Picks another queue of the cluster from the grid, searched by name (the messages module's Move uses it too). */
export function TargetQueuePicker({
  clusterId,
  queueName,
  value,
  onChange,
}: {
  clusterId: string;
  queueName: string;
  value: string | null;
  onChange: (value: string | null) => void;
}) {
  const trpc = useTRPC();
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search, 250);
  const queues = useQuery({
    ...trpc.queues.list.queryOptions({
      clusterId,
      sort: 'queueName',
      page: 1,
      pageSize: 50,
      ...(q && q !== value ? { q } : {}),
    }),
    placeholderData: keepPreviousData,
  });
  const names = (queues.data?.items ?? []).map((row) => row.queueName).filter((name) => name !== queueName);
  const data = value && !names.includes(value) ? [value, ...names] : names;
  return (
    <Select
      label="Target queue"
      placeholder="Search the cluster's queues"
      description="The messages go to this queue; it must exist in the cluster."
      data={data}
      value={value}
      onChange={onChange}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      nothingFoundMessage={queues.isFetching ? 'Searching…' : 'No other queue matches'}
      clearable
      required
    />
  );
}

function MoveMessagesOperation({ clusterId, queue, onClose, notice }: OperationProps) {
  const trpc = useTRPC();
  const run = useRun(useMutation(trpc.queues.moveMessages.mutationOptions()).mutateAsync);
  const [filter, setFilter] = useState('');
  const [target, setTarget] = useState<string | null>(null);
  const selector = filter.trim();
  const spec: OperationSpec = {
    title: `Move messages of ${queue.queueName}`,
    notice,
    description: 'Moves the messages that match a selector to another queue, on every node that has both.',
    form: (
      <>
        {selectorInput(filter, setFilter, 'Empty: every message of the queue')}
        <TargetQueuePicker clusterId={clusterId} queueName={queue.queueName} value={target} onChange={setTarget} />
      </>
    ),
    parameters: JSON.stringify([selector, target]),
    ready: target !== null,
    hold: { action: 'Move', noun: MESSAGES },
    summary: (preview) =>
      `${messages(preview.affectedCount)} ${selector ? `matching ${selector}` : '(every message)'} on ${actingNodes(preview)} would move to ${target ?? ''}.`,
    done: (result) => `${messagesDone('moved')(result)} to ${target ?? ''}`,
    run: (flags) =>
      run({
        clusterId,
        queueName: queue.queueName,
        targetQueue: target ?? '',
        ...(selector ? { filter: selector } : {}),
        ...flags,
      }),
    auditTarget: queue.queueName,
  };
  return <OperationDialog spec={spec} onClose={onClose} />;
}

function RetryOperation({ clusterId, queue, onClose, notice }: OperationProps) {
  const trpc = useTRPC();
  const run = useRun(useMutation(trpc.queues.retryMessages.mutationOptions()).mutateAsync);
  const [address, setAddress] = useState('');
  const original = address.trim();
  const spec: OperationSpec = {
    title: `Retry dead letters of ${queue.queueName}`,
    notice,
    description: 'Sends dead letters back to the address each one died on (the broker reads it from the message).',
    form: (
      <TextInput
        label="Only those that died on this address"
        placeholder="e.g. orders"
        description="Empty: every message of this dead-letter queue"
        value={address}
        onChange={(event) => setAddress(event.currentTarget.value)}
      />
    ),
    parameters: original,
    ready: true,
    hold: { action: 'Retry', noun: MESSAGES },
    summary: (preview) =>
      `${messages(preview.affectedCount)} on ${actingNodes(preview)} would go back to ${original || 'their original addresses'}.`,
    done: messagesDone('sent back'),
    run: (flags) =>
      run({ clusterId, queueName: queue.queueName, ...(original ? { originalAddress: original } : {}), ...flags }),
    auditTarget: queue.queueName,
  };
  return <OperationDialog spec={spec} onClose={onClose} />;
}

function PauseOperation({ clusterId, queue, onClose, notice }: OperationProps) {
  const trpc = useTRPC();
  const run = useRun(useMutation(trpc.queues.pause.mutationOptions()).mutateAsync);
  const [persist, setPersist] = useState(false);
  const spec: OperationSpec = {
    title: `Pause ${queue.queueName}`,
    notice,
    description: 'Stops delivery to consumers; messages keep arriving and wait in the queue until it is resumed.',
    form: (
      <Checkbox
        label="Keep it paused across broker restarts"
        checked={persist}
        onChange={(event) => setPersist(event.currentTarget.checked)}
      />
    ),
    parameters: String(persist),
    ready: true,
    applyLabel: (preview) => `Pause on ${actingNodes(preview)}`,
    summary: (preview) =>
      `Delivery would stop on ${actingNodes(preview)}${persist ? ', and stay stopped across restarts' : ' until resumed or restarted'}.`,
    done: (result) => `Paused on ${appliedNodes(result)}`,
    run: ({ dryRun }) => run({ clusterId, queueName: queue.queueName, persist, dryRun }),
    auditTarget: queue.queueName,
  };
  return <OperationDialog spec={spec} onClose={onClose} />;
}

function ResumeOperation({ clusterId, queue, onClose, notice }: OperationProps) {
  const trpc = useTRPC();
  const run = useRun(useMutation(trpc.queues.resume.mutationOptions()).mutateAsync);
  const spec: OperationSpec = {
    title: `Resume ${queue.queueName}`,
    notice,
    description: 'Delivers the queue’s messages to its consumers again.',
    parameters: '',
    ready: true,
    applyLabel: (preview) => `Resume on ${actingNodes(preview)}`,
    summary: (preview) => `Delivery would resume on ${actingNodes(preview)}.`,
    done: (result) => `Resumed on ${appliedNodes(result)}`,
    run: ({ dryRun }) => run({ clusterId, queueName: queue.queueName, dryRun }),
    auditTarget: queue.queueName,
  };
  return <OperationDialog spec={spec} onClose={onClose} />;
}

function DeleteQueueOperation({ clusterId, queue, onClose, notice }: OperationProps) {
  const trpc = useTRPC();
  const run = useRun(useMutation(trpc.queues.remove.mutationOptions()).mutateAsync);
  const spec: OperationSpec = {
    title: `Delete ${queue.queueName}`,
    notice,
    description:
      'Deletes the queue on every node that has it, with its messages; its consumers are disconnected from it.',
    parameters: '',
    ready: true,
    hold: { action: 'Delete', noun: ['queue', 'queues'], count: 1 },
    summary: (preview) =>
      `The queue and its ${messages(preview.affectedCount)} would be deleted on ${actingNodes(preview)}.`,
    done: (result) => `Deleted on ${appliedNodes(result)}, with ${messages(result.appliedCount)}`,
    run: (flags) => run({ clusterId, queueName: queue.queueName, ...flags }),
    auditTarget: queue.queueName,
    afterwards: (
      <Anchor component={Link} href={queuesPath(clusterId)} size="sm">
        Back to the queues
      </Anchor>
    ),
  };
  return <OperationDialog spec={spec} onClose={onClose} />;
}

const DIALOGS = {
  purge: PurgeOperation,
  'delete-messages': DeleteMessagesOperation,
  'move-messages': MoveMessagesOperation,
  retry: RetryOperation,
  pause: PauseOperation,
  resume: ResumeOperation,
  'delete-queue': DeleteQueueOperation,
} satisfies Record<OperationId, unknown>;

/** Why an operation the URL names is not offered: writes are off on the cluster, or retry on a queue that is not a
 *  dead-letter queue (a row menu link offers Retry on every row). */
function NotOffered({ title, children, onClose }: { title: string; children: ReactNode; onClose: () => void }) {
  return (
    <Modal opened onClose={onClose} title={title} size="lg">
      <Stack gap="sm" data-testid="operation-not-offered">
        {children}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

const TITLES: Record<OperationId, string> = {
  purge: 'Purge',
  'delete-messages': 'Delete messages',
  'move-messages': 'Move messages',
  retry: 'Retry dead letters',
  pause: 'Pause',
  resume: 'Resume',
  'delete-queue': 'Delete queue',
};

/** The Operate menu of the queue page and the dialog of the operation the URL names. Writes the capability ledger
 *  finds unavailable disable every item (the reason and the broker.xml that changes it in the menu); uncertain
 *  ones keep them enabled and say so. */
export function QueueOperations({ clusterId, queue }: { clusterId: string; queue: Queue | undefined }) {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const gate = useCapabilityGate(clusterId);
  const requested = params.get('operate');
  const operation = isOperation(requested) ? requested : undefined;
  const open = (next: OperationId | undefined) => {
    const query = new URLSearchParams(params.toString());
    if (next) query.set('operate', next);
    else query.delete('operate');
    const search = query.toString();
    router.replace(search ? `${pathname}?${search}` : pathname, { scroll: false });
  };
  const Dialog = operation ? DIALOGS[operation] : undefined;
  const item = (id: OperationId, label: string, colour?: string) => (
    <Menu.Item
      key={id}
      color={colour}
      disabled={gate.disabled}
      leftSection={<GateIcon gate={gate} />}
      onClick={() => open(id)}
    >
      {label}
    </Menu.Item>
  );
  let dialog: ReactNode = null;
  if (queue && operation && Dialog) {
    const close = () => open(undefined);
    const title = `${TITLES[operation]} ${queue.queueName}`;
    if (gate.disabled)
      dialog = (
        <NotOffered title={title} onClose={close}>
          <CapabilityNote gate={gate} />
        </NotOffered>
      );
    else if (operation === 'retry' && !queue.deadLetter)
      dialog = (
        <NotOffered title={title} onClose={close}>
          <Text size="sm">
            {queue.queueName} is not a dead-letter or expiry queue of its brokers’ address settings: its messages have
            no address they died on to go back to. Move them to another queue instead, or open the dead letters.
          </Text>
          <Group gap="md">
            <Anchor component="button" type="button" size="sm" onClick={() => open('move-messages')}>
              Move messages…
            </Anchor>
            <Anchor component={Link} href="/dead-letters" size="sm">
              Dead letters
            </Anchor>
          </Group>
        </NotOffered>
      );
    else
      dialog = (
        <Dialog
          key={operation}
          clusterId={clusterId}
          queue={queue}
          onClose={close}
          notice={<CapabilityNote gate={gate} />}
        />
      );
  }
  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button
            size="xs"
            leftSection={<GateIcon gate={gate} />}
            rightSection={<IconChevronDown size={14} />}
            disabled={!queue}
            data-capability={gate.value}
          >
            Operate
          </Button>
        </Menu.Target>
        <Menu.Dropdown data-testid="queue-operate-menu">
          {gate.reason && (
            <Box px="sm" py={6}>
              <CapabilityNote gate={gate} compact />
            </Box>
          )}
          <Menu.Label>Messages</Menu.Label>
          {item('purge', 'Purge…')}
          {item('delete-messages', 'Delete messages…')}
          {item('move-messages', 'Move messages…')}
          {queue?.deadLetter && item('retry', 'Retry dead letters…')}
          <Menu.Label>Delivery</Menu.Label>
          {queue?.paused ? item('resume', 'Resume…') : item('pause', 'Pause…')}
          <Menu.Divider />
          {item('delete-queue', 'Delete queue…', 'red')}
        </Menu.Dropdown>
      </Menu>
      {dialog}
    </>
  );
}
