'use client';
// The command palette: Ctrl+K / Cmd+K anywhere in the console, or the header's Search button, opens one dialog that
// jumps to a screen, a cluster or a queue. Built on Mantine's Modal and Combobox parts (docs/adr/0010): the input
// keeps the focus and names the highlighted option with aria-activedescendant; arrows move, Enter goes, Escape closes.
import {
  Box,
  Button,
  Combobox,
  Group,
  Highlight,
  Kbd,
  Loader,
  Modal,
  ScrollArea,
  Text,
  TextInput,
  VisuallyHidden,
  useCombobox,
} from '@mantine/core';
import { useDebouncedValue, useDisclosure, useHotkeys, useId, useOs } from '@mantine/hooks';
import { IconLayoutList, IconSearch, IconServer2, IconStack2 } from '@tabler/icons-react';
import { useRouter } from 'next/navigation';
import { useEffect, useMemo, useRef, useState, type ComponentType, type KeyboardEvent } from 'react';
import { useConsoleUi } from '../slots/console-ui-context.ts';
import type { ModuleUi } from '../slots/contribution-types.ts';
import { contributionsFor, linkHref } from '../slots/resolve-ui.ts';
import { matchScreens, paletteScreens } from './palette-screens.ts';
import {
  useClusterSearch,
  useQueueSearch,
  type ClusterHit,
  type QueueHit,
  type SectionSearch,
} from './palette-search.ts';

/** Typing settles for this long before the server is asked. */
const DEBOUNCE_MS = 150;
const LABEL = 'Go to a screen, cluster or queue';
/** Secondary text follows the option's own colour, so it stays readable on the highlighted option's fill. */
const SECONDARY = { opacity: 0.72 } as const;

interface PaletteItem {
  readonly key: string;
  readonly label: string;
  readonly description: string;
  readonly aside?: string;
  readonly href: string;
  readonly icon: ComponentType<{ size?: number }>;
}

interface PaletteSection {
  readonly id: 'screens' | 'clusters' | 'queues';
  readonly title: string;
  readonly items: readonly PaletteItem[];
  readonly failure?: string;
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

function clusterItem(cluster: ClusterHit): PaletteItem {
  return {
    key: `cluster:${cluster.id}`,
    label: cluster.name,
    description: cluster.environment ? `Cluster in ${cluster.environment.name}` : 'Cluster',
    aside: plural(cluster.logicalNodeCount, 'node'),
    href: `/clusters/${encodeURIComponent(cluster.id)}`,
    icon: IconServer2,
  };
}

/** A queue is offered only when the enabled module owning `queue.link` says where its page is. */
function queueItems(enabled: readonly ModuleUi[], hits: readonly QueueHit[]): PaletteItem[] {
  return hits.flatMap((hit) => {
    const href = linkHref(enabled, 'queue', { clusterId: hit.clusterId, key: hit.queueName, row: hit });
    if (!href) return [];
    return [
      {
        key: `queue:${hit.clusterId}:${hit.queueName}`,
        label: hit.queueName,
        description: `${hit.clusterName} · ${hit.address} · ${hit.routingType}`,
        aside: plural(hit.messageCount, 'message'),
        href,
        icon: IconStack2,
      },
    ];
  });
}

function remoteSection<Hit>(
  id: 'clusters' | 'queues',
  title: string,
  search: SectionSearch<Hit>,
  toItems: (hits: readonly Hit[]) => PaletteItem[],
): PaletteSection[] {
  const { result } = search;
  if (result.kind === 'absent') return [];
  if (result.kind === 'failed') return [{ id, title, items: [], failure: result.message }];
  return [{ id, title, items: toItems(result.hits) }];
}

function PaletteSearch({ onClose }: { onClose: () => void }) {
  const router = useRouter();
  const { enabled } = useConsoleUi();
  const combobox = useCombobox();
  const baseId = useId();
  const [query, setQuery] = useState('');
  const text = query.trim();
  const [debounced] = useDebouncedValue(text, DEBOUNCE_MS);
  const [activeKey, setActiveKey] = useState<string>();
  // The modal's focus trap focuses `data-autofocus` a tick after opening; keys typed straight after Ctrl+K would be
  // lost in between, so the input takes the focus as soon as it is there.
  const inputRef = useRef<HTMLInputElement>(null);
  useEffect(() => inputRef.current?.focus(), []);

  const canOpenQueues = contributionsFor(enabled, 'queue.link').length > 0;
  const clusters = useClusterSearch(debounced);
  const queues = useQueueSearch(debounced, canOpenQueues);
  const screens = useMemo(() => matchScreens(paletteScreens(enabled), text), [enabled, text]);

  const screenSection: PaletteSection = {
    id: 'screens',
    title: 'Screens',
    items: screens.map((screen) => ({
      key: `screen:${screen.href}`,
      label: screen.label,
      description: screen.where,
      href: screen.href,
      icon: screen.icon ?? IconLayoutList,
    })),
  };
  const sections = [
    screenSection,
    ...remoteSection('clusters', 'Clusters', clusters, (hits) => hits.map(clusterItem)),
    ...remoteSection('queues', 'Queues', queues, (hits) => queueItems(enabled, hits)),
  ].filter((section) => section.items.length > 0 || section.failure);
  const items = sections.flatMap((section) => section.items);
  // Each section's first option's place in `items`, which the option ids and the highlight count in.
  const starts = sections.map((_, at) => sections.slice(0, at).reduce((sum, section) => sum + section.items.length, 0));
  const pending = text !== debounced || clusters.pending || queues.pending;

  // The highlight stays on the same item while answers arrive; when that item is gone it falls back to the first.
  const activeIndex = Math.max(
    0,
    items.findIndex((item) => item.key === activeKey),
  );
  const active = items[activeIndex];
  const optionId = (index: number) => `${baseId}-option-${index}`;
  const activeId = active ? optionId(activeIndex) : undefined;
  useEffect(() => {
    if (activeId) document.getElementById(activeId)?.scrollIntoView({ block: 'nearest' });
  }, [activeId]);

  const go = (item: PaletteItem | undefined) => {
    if (!item) return;
    onClose();
    router.push(item.href);
  };
  const move = (step: number) => {
    const next = items[(activeIndex + step + items.length) % items.length];
    if (next) setActiveKey(next.key);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.nativeEvent.isComposing) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      move(event.key === 'ArrowDown' ? 1 : -1);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      go(active);
    }
  };

  const words = text.split(/\s+/).filter(Boolean);
  const listId = `${baseId}-list`;
  return (
    <Combobox store={combobox} onOptionSubmit={(key) => go(items.find((item) => item.key === key))}>
      <TextInput
        ref={inputRef}
        data-autofocus
        size="md"
        variant="unstyled"
        px="sm"
        placeholder={`${LABEL}…`}
        aria-label={LABEL}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded
        aria-controls={listId}
        aria-activedescendant={activeId}
        autoComplete="off"
        spellCheck={false}
        value={query}
        onChange={(event) => {
          setQuery(event.currentTarget.value);
          setActiveKey(undefined);
        }}
        onKeyDown={onKeyDown}
        leftSection={<IconSearch size={18} aria-hidden />}
        rightSection={pending ? <Loader size="xs" aria-label="Searching" /> : undefined}
        style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
      />
      <VisuallyHidden aria-live="polite">
        {pending ? '' : items.length === 0 ? 'No results' : plural(items.length, 'result')}
      </VisuallyHidden>
      <ScrollArea.Autosize mah="min(60vh, 480px)" type="auto">
        <Combobox.Options id={listId} aria-label="Results" p="xs">
          {sections.map((section, at) => (
            <Combobox.Group key={section.id} label={section.title} data-palette-section={section.id}>
              {section.failure && (
                <Text size="sm" c="red" px="sm" py={4} role="status">
                  {section.failure}
                </Text>
              )}
              {section.items.map((item, offset) => {
                const index = (starts[at] ?? 0) + offset;
                const isActive = index === activeIndex;
                const Icon = item.icon;
                return (
                  <Combobox.Option
                    key={item.key}
                    value={item.key}
                    id={optionId(index)}
                    selected={isActive}
                    aria-selected={isActive}
                    data-href={item.href}
                  >
                    <Group gap="sm" wrap="nowrap">
                      <Box component="span" aria-hidden style={{ display: 'flex', ...SECONDARY }}>
                        <Icon size={18} />
                      </Box>
                      <Box style={{ flex: 1, minWidth: 0 }}>
                        <Highlight highlight={words} size="sm" fw={500} truncate>
                          {item.label}
                        </Highlight>
                        <Text size="xs" style={SECONDARY} truncate>
                          {item.description}
                        </Text>
                      </Box>
                      {item.aside && (
                        <Text size="xs" style={{ whiteSpace: 'nowrap', ...SECONDARY }}>
                          {item.aside}
                        </Text>
                      )}
                    </Group>
                  </Combobox.Option>
                );
              })}
            </Combobox.Group>
          ))}
          {sections.length === 0 && !pending && (
            <Combobox.Empty py="lg" data-testid="command-palette-empty">
              <Text size="sm" fw={600}>
                Nothing matches “{text}”
              </Text>
              <Text size="xs" c="dimmed">
                Screens, clusters and queues are found by name.
              </Text>
            </Combobox.Empty>
          )}
        </Combobox.Options>
      </ScrollArea.Autosize>
      <Group gap="md" px="md" py={6} aria-hidden style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
        <Text size="xs" c="dimmed">
          <Kbd size="xs">↑</Kbd> <Kbd size="xs">↓</Kbd> to move
        </Text>
        <Text size="xs" c="dimmed">
          <Kbd size="xs">Enter</Kbd> to open
        </Text>
        <Text size="xs" c="dimmed">
          <Kbd size="xs">Esc</Kbd> to close
        </Text>
      </Group>
    </Combobox>
  );
}

/** The header's Search button and the dialog it opens; Ctrl+K / Cmd+K opens (and closes) it from anywhere. */
export function CommandPalette() {
  const [opened, { open, close }] = useDisclosure(false);
  // Every opening starts a fresh search, even one during the closing animation of the last (the content is still
  // mounted then, text and all).
  const [session, setSession] = useState(0);
  const openFresh = () => {
    setSession((current) => current + 1);
    open();
  };
  // Also from inside a text field (a table's filter): the shortcut types nothing there.
  useHotkeys([['mod+K', () => (opened ? close() : openFresh())]], []);
  const os = useOs();
  const shortcut = os === 'macos' || os === 'ios' ? '⌘ K' : 'Ctrl K';
  return (
    <>
      <Button
        variant="default"
        size="sm"
        onClick={openFresh}
        leftSection={<IconSearch size={16} aria-hidden />}
        rightSection={
          <Kbd size="xs" visibleFrom="sm" aria-hidden>
            {shortcut}
          </Kbd>
        }
        aria-haspopup="dialog"
        aria-keyshortcuts="Control+K Meta+K"
      >
        Search
      </Button>
      <Modal.Root opened={opened} onClose={close} size="lg" yOffset="12vh">
        <Modal.Overlay />
        <Modal.Content aria-label={LABEL} data-testid="command-palette">
          <PaletteSearch key={session} onClose={close} />
        </Modal.Content>
      </Modal.Root>
    </>
  );
}
