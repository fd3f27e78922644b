'use client';
// The answer to "where would this message go?": whether the nodes agree (and how they do not), then per node the
// outcome, the queues that would receive it (how it got there, whether each gets a copy or one of a group does, and
// whether it is certain), what the broker does in words, and what this answer cannot know.
import { Alert, Badge, Group, List, Paper, Stack, Text } from '@mantine/core';
import type { WhereAnswer, WhereNodeAnswer, WhereOutcome } from '../../model/where/where-types.ts';

/** A note as the API hands it out (its kind as text). */
interface Note {
  readonly kind: string;
  readonly text: string;
}
type NodeAnswer = Omit<WhereNodeAnswer, 'notes' | 'unknowns'> & {
  readonly notes: readonly Note[];
  readonly unknowns: readonly Note[];
};
type Answer = Omit<WhereAnswer, 'nodes' | 'notes'> & {
  readonly nodes: readonly NodeAnswer[];
  readonly notes: readonly Note[];
};

const OUTCOME: Record<WhereOutcome, { label: string; color: string }> = {
  routed: { label: 'Routed', color: 'green' },
  'dead-lettered': { label: 'Dead-lettered', color: 'orange' },
  'auto-created': { label: 'A queue would be created', color: 'blue' },
  dropped: { label: 'Dropped', color: 'red' },
  refused: { label: 'Refused', color: 'red' },
  'address-missing': { label: 'Address missing', color: 'red' },
};

function Notes({ notes, testId }: { notes: readonly Note[]; testId: string }) {
  if (notes.length === 0) return null;
  return (
    <List size="sm" spacing={2} data-testid={testId}>
      {notes.map((note, index) => (
        <List.Item key={`${note.kind}-${String(index)}`}>{note.text}</List.Item>
      ))}
    </List>
  );
}

export function WhereAnswerView({ answer }: { answer: Answer }) {
  return (
    <Stack gap="sm" data-testid="where-answer" data-agree={String(answer.agree)}>
      <Notes notes={answer.notes} testId="where-question-notes" />
      {answer.agree ? (
        <Text size="sm" fw={600}>
          Every node routes a message to {answer.address} alike.
        </Text>
      ) : (
        <Alert color="orange" variant="light" title="The nodes route it differently">
          <List size="sm">
            {answer.differences.map((difference) => (
              <List.Item key={difference.text}>{difference.text}</List.Item>
            ))}
          </List>
        </Alert>
      )}
      {answer.nodes.map((node) => (
        <Paper key={node.nodeId} withBorder p="sm" radius="md" data-testid="where-node" data-node={node.nodeName}>
          <Stack gap="xs">
            <Group gap="xs">
              <Text fw={600}>{node.nodeName}</Text>
              <Badge
                color={OUTCOME[node.outcome].color}
                variant="light"
                data-testid="where-outcome"
                data-outcome={node.outcome}
              >
                {OUTCOME[node.outcome].label}
              </Badge>
            </Group>
            {node.receivingQueues.length > 0 ? (
              <Text size="sm" fw={500}>
                Receiving queues
              </Text>
            ) : null}
            {node.receivingQueues.length > 0 ? (
              <List size="sm" spacing={2}>
                {node.receivingQueues.map((queue) => (
                  <List.Item key={queue.itemId} data-testid="where-queue" data-queue={queue.name}>
                    <Text span fw={600} size="sm">
                      {queue.name}
                    </Text>{' '}
                    on {queue.address}, via {queue.via}:{' '}
                    {queue.share === 'every' ? 'a copy' : `one of group ${queue.group}`}
                    {queue.certain ? '' : ' (not certain: see below)'}
                  </List.Item>
                ))}
              </List>
            ) : (
              <Text size="sm" c="dimmed">
                No queue receives it.
              </Text>
            )}
            <Notes notes={node.notes} testId="where-notes" />
            {node.unknowns.length > 0 && (
              <>
                <Text size="sm" fw={600} c="orange">
                  What this answer cannot know
                </Text>
                <Notes notes={node.unknowns} testId="where-unknowns" />
              </>
            )}
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}
