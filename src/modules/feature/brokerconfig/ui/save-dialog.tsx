'use client';
// Saving the declared document asks why (the comment) and names the revision the change started from; a dry run on
// opening shows what the revision would change. A 409 revision-conflict and a 400's field errors are said here and
// handed back to the editor, which marks the fields.
import { Alert, Button, Group, List, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { problemOf } from '@/ui/data/problem.ts';
import { useTRPC, type RouterOutputs } from '@/ui/data/trpc.ts';
import { changeText } from './config-format.ts';
import { fieldErrorsOf, problemTypeOf } from './config-problem.ts';
import type { Draft } from './draft.ts';

type Saved = RouterOutputs['brokerconfig']['revisions']['save'];

export function SaveDialog({
  clusterId,
  draft,
  document,
  onClose,
  onSaved,
  onFailed,
}: {
  clusterId: string;
  draft: Draft;
  document: unknown;
  onClose: () => void;
  onSaved: (saved: Saved) => void;
  onFailed: (error: unknown) => void;
}) {
  const trpc = useTRPC();
  const [comment, setComment] = useState('');
  const save = useMutation(trpc.brokerconfig.revisions.save.mutationOptions());
  const preview = useMutation(trpc.brokerconfig.revisions.save.mutationOptions());
  const input = (dryRun: boolean) => ({
    clusterId,
    // The server validates it; a document the editor could not type is refused there, per field.
    document: document as never,
    comment: comment.trim() || 'preview',
    baseRevision: draft.baseRevision,
    dryRun,
  });
  const { mutate: runPreview } = preview;
  useEffect(() => {
    runPreview({
      clusterId,
      document: document as never,
      comment: 'preview',
      baseRevision: draft.baseRevision,
      dryRun: true,
    });
  }, [runPreview, clusterId, document, draft.baseRevision]);
  useEffect(() => {
    if (preview.error) onFailed(preview.error);
  }, [preview.error, onFailed]);

  const failure = save.error ?? preview.error;
  const commentError = fieldErrorsOf(save.error).find((error) => error.path === 'comment')?.message;
  const conflict = problemTypeOf(failure) === 'revision-conflict';
  const changes = preview.data?.changes;
  return (
    <Modal opened onClose={onClose} title={`Save revision ${String(draft.baseRevision + 1)}`} size="lg">
      <Stack gap="sm" data-testid="save-dialog">
        <Text size="sm" c="dimmed">
          Starts from {draft.baseRevision === 0 ? 'nothing declared yet' : `revision ${String(draft.baseRevision)}`}.
          Saving declares; nothing reaches a broker until a plan is previewed and applied.
        </Text>
        {changes && (
          <div data-testid="save-changes">
            <Text size="sm" fw={600}>
              {changes.length === 0 ? 'No item changes.' : 'What changes'}
            </Text>
            <List size="sm" ff="monospace">
              {changes.map((change) => (
                <List.Item key={`${change.section}/${change.key}`}>{changeText(change)}</List.Item>
              ))}
            </List>
          </div>
        )}
        <Textarea
          label="Comment"
          description="Why, in a few words: History shows it beside the revision."
          required
          autosize
          minRows={2}
          value={comment}
          error={commentError}
          onChange={(event) => setComment(event.currentTarget.value)}
          data-autofocus
        />
        {failure && (
          <Alert color={conflict ? 'orange' : 'red'} title={problemOf(failure).title} data-testid="save-problem">
            {problemOf(failure).detail}
            {fieldErrorsOf(failure).length > 0 && (
              <List size="sm" mt="xs" ff="monospace" data-testid="save-field-errors">
                {fieldErrorsOf(failure).map((error) => (
                  <List.Item key={`${error.path}:${error.message}`}>
                    {error.path || 'document'}: {error.message}
                  </List.Item>
                ))}
              </List>
            )}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            loading={save.isPending}
            disabled={!comment.trim() || conflict}
            onClick={() =>
              save.mutate(input(false), {
                onSuccess: onSaved,
                onError: onFailed,
              })
            }
          >
            Save revision
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
