'use client';
// Adopting the live cluster: a dry run reads the live configuration and shows the document it would declare and its
// notes (bridges skipped: their credentials cannot be read back), then it is saved as a revision, or loaded into the
// editor for review first.
import { Alert, Button, Group, List, Modal, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import dynamic from 'next/dynamic';
import { useEffect, useState } from 'react';
import { problemOf } from '@/ui/data/problem.ts';
import { useTRPC } from '@/ui/data/trpc.ts';
import { documentText } from './document-text.ts';

const DocumentEditor = dynamic(() => import('./document-editor.tsx'), {
  ssr: false,
  loading: () => <Skeleton height={240} />,
});

export function AdoptDialog({
  clusterId,
  baseRevision,
  schema,
  onClose,
  onAdopted,
  onReview,
}: {
  clusterId: string;
  baseRevision: number;
  schema: Record<string, unknown> | undefined;
  onClose: () => void;
  onAdopted: (revision: number) => void;
  onReview: (text: string) => void;
}) {
  const trpc = useTRPC();
  const [comment, setComment] = useState('Adopted from the live cluster');
  const preview = useMutation(trpc.brokerconfig.revisions.adopt.mutationOptions());
  const adopt = useMutation(trpc.brokerconfig.revisions.adopt.mutationOptions());
  const { mutate: runPreview } = preview;
  useEffect(() => {
    runPreview({ clusterId, baseRevision, dryRun: true });
  }, [runPreview, clusterId, baseRevision]);
  const text = preview.data ? documentText(preview.data.document) : undefined;
  const failure = adopt.error ?? preview.error;
  return (
    <Modal opened onClose={onClose} title="Adopt the live configuration" size="xl">
      <Stack gap="sm" data-testid="adopt-dialog">
        <Text size="sm" c="dimmed">
          Dry run: the live cluster read as a declared document; nothing is stored until you save it.
        </Text>
        {preview.isPending && <Skeleton height={240} />}
        {preview.data && (
          <>
            {preview.data.notes.length > 0 && (
              <Alert color="yellow" title="Notes" data-testid="adopt-notes">
                <List size="sm">
                  {preview.data.notes.map((note) => (
                    <List.Item key={note}>{note}</List.Item>
                  ))}
                </List>
              </Alert>
            )}
            <DocumentEditor
              value={text ?? ''}
              schema={schema}
              readOnly
              label="Adopted document (read-only)"
              testId="adopt-document"
            />
            <TextInput label="Comment" value={comment} onChange={(event) => setComment(event.currentTarget.value)} />
          </>
        )}
        {failure && (
          <Alert color="red" title={problemOf(failure).title} data-testid="adopt-problem">
            {problemOf(failure).detail}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="light" disabled={!text} onClick={() => text && onReview(text)}>
            Review in the editor
          </Button>
          <Button
            disabled={!preview.data}
            loading={adopt.isPending}
            onClick={() =>
              adopt.mutate(
                { clusterId, baseRevision, comment: comment.trim() || 'Adopted from the live cluster', dryRun: false },
                { onSuccess: (answer) => answer.number !== null && onAdopted(answer.number) },
              )
            }
          >
            Save as revision {baseRevision + 1}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
