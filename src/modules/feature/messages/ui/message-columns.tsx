// The message browser's columns: the id opens the message, then when it was made, its priority and durability,
// its size, what its body is (with the start of a text body), and marks for masked and cut content.
import { Anchor, Badge, Group, Text, Tooltip } from '@mantine/core';
import type { Column } from '@/ui/table/column.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import { bytesOf, formatBytes, textOf } from './body-format.ts';
import { createdAt, headerText, isTruncated, type MessageView } from './message-fields.ts';

export interface MessageRow extends MessageView {
  /** Unique on the page: the place in the queue (native) or the broker's id, with the row's index. */
  readonly key: string;
}

const PREVIEW_CHARACTERS = 80;

function bodyPreview(message: MessageView): string {
  const { body } = message;
  if (!body.base64 || body.kind === 'binary' || body.kind === 'empty') return '';
  // Only the start is decoded: a large body stays cheap to list.
  const start = body.base64.slice(0, Math.ceil((PREVIEW_CHARACTERS * 4) / 3) * 4);
  const text = textOf(bytesOf(start)).replace(/\s+/g, ' ').trim();
  return text.length > PREVIEW_CHARACTERS ? `${text.slice(0, PREVIEW_CHARACTERS)}…` : text;
}

export function messageColumns(onOpen: (row: MessageRow) => void): readonly Column<MessageRow>[] {
  return [
    {
      id: 'id',
      header: 'Message',
      cell: (row) => (
        <Anchor
          component="button"
          type="button"
          size="sm"
          ff="monospace"
          onClick={() => onOpen(row)}
          aria-label={`Open message ${row.messageId || row.key}`}
          style={{ wordBreak: 'break-all', textAlign: 'left' }}
        >
          {row.messageId || (row.position === null ? '(no id)' : `(no id) #${row.position + 1}`)}
        </Anchor>
      ),
    },
    {
      id: 'created',
      header: 'Created',
      width: 140,
      cell: (row) => <TimeAgo iso={createdAt(row)} />,
    },
    {
      id: 'priority',
      header: 'Priority',
      align: 'right',
      width: 90,
      cell: (row) => headerText(row.headers.priority),
    },
    {
      id: 'durable',
      header: 'Durable',
      width: 90,
      cell: (row) => (row.headers.durable === true ? 'yes' : row.headers.durable === false ? 'no' : '—'),
    },
    {
      id: 'size',
      header: 'Size',
      align: 'right',
      width: 100,
      cell: (row) => (
        <Text size="sm" ff="monospace">
          {formatBytes(row.body.sizeBytes)}
        </Text>
      ),
    },
    {
      id: 'body',
      header: 'Body',
      cell: (row) => (
        <Group gap={6} wrap="nowrap">
          <Badge size="sm" variant="light" color={row.body.kind === 'withheld' ? 'gray' : 'blue'}>
            {row.body.kind}
          </Badge>
          <Text size="xs" c="dimmed" truncate maw={320} ff="monospace">
            {bodyPreview(row)}
          </Text>
        </Group>
      ),
    },
    {
      id: 'marks',
      header: 'Marks',
      width: 150,
      cell: (row) => (
        <Group gap={4} wrap="nowrap">
          {row.redactions.length > 0 && (
            <Tooltip
              label={`Masked by the content policy: ${[...new Set(row.redactions.map((r) => r.dataClass))].join(', ')}`}
            >
              <Badge size="sm" color="grape" variant="light" data-testid="masked-badge">
                masked
              </Badge>
            </Tooltip>
          )}
          {isTruncated(row) && (
            <Tooltip label="The broker cut this message in the management answer (see the limit above the list)">
              <Badge size="sm" color="orange" variant="light" data-testid="truncated-badge">
                truncated
              </Badge>
            </Tooltip>
          )}
        </Group>
      ),
    },
    {
      id: 'position',
      header: 'Position',
      align: 'right',
      width: 100,
      hiddenByDefault: true,
      cell: (row) => (row.position === null ? '—' : String(row.position)),
    },
  ];
}
