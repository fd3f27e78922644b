'use client';
// The item clicked in the Builder's graph: a declared divert, queue or bridge shows its declaration and can be removed
// from the draft; an address is implied by what names it, so it says so instead.
import { Button, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { valueText } from '../config-format.ts';
import type { ConfigDocument } from '../../server/model/document.ts';
import { withoutEntry, type BuilderSection } from './edit-document.ts';

/** The graph's item kinds (routing's `${kind}:${name}` ids) that are declarations of their own. */
const SECTION_OF: Readonly<Record<string, BuilderSection>> = { divert: 'diverts', queue: 'queues', bridge: 'bridges' };

function declarationOf(document: ConfigDocument, itemId: string) {
  const colon = itemId.indexOf(':');
  const [kind, name] = [itemId.slice(0, colon), itemId.slice(colon + 1)];
  const section = SECTION_OF[kind];
  const entry = section ? document[section].find((item) => item.name === name) : undefined;
  return { kind, name, section, entry };
}

export function SelectedEntry({
  itemId,
  document,
  disabled,
  onRemove,
}: {
  itemId: string | null;
  document: ConfigDocument;
  disabled: boolean;
  onRemove: (document: ConfigDocument) => void;
}) {
  if (!itemId)
    return (
      <Paper withBorder p="sm" radius="md">
        <Text size="sm" c="dimmed">
          Click an item of the graph to see its declaration; a divert, a queue or a bridge can be removed from the
          draft.
        </Text>
      </Paper>
    );
  const { kind, name, section, entry } = declarationOf(document, itemId);
  return (
    <Paper withBorder p="sm" radius="md" data-testid="builder-selected" data-item-id={itemId}>
      <Stack gap="xs">
        <Text size="sm" fw={600}>
          {kind} {name}
        </Text>
        {entry && section ? (
          <>
            <SimpleGrid cols={2} spacing="xs" verticalSpacing={2} data-testid="builder-declaration">
              {Object.entries(entry).flatMap(([field, value]) => [
                <Text key={`${field}:name`} size="sm" c="dimmed">
                  {field}
                </Text>,
                <Text key={`${field}:value`} size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                  {valueText(value)}
                </Text>,
              ])}
            </SimpleGrid>
            <Button
              size="xs"
              variant="light"
              color="red"
              disabled={disabled}
              onClick={() => onRemove(withoutEntry(document, section, name))}
            >
              Remove from the draft
            </Button>
          </>
        ) : (
          <Text size="sm" c="dimmed">
            {kind === 'address'
              ? 'Addresses are not declared on their own here: a queue or a divert naming one implies it.'
              : 'Not a declaration of this document.'}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
