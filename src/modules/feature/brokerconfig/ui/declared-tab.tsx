'use client';
// Declared: the document being edited, as a code editor (completion and validation from the schema) or as a form of
// the common fields, both over one text. Save asks for a comment and names the revision the change started from;
// a refusal marks its fields. Adopt turns the live cluster into a revision (dry run first). Below, the bridge
// credentials the document may name.
import { Alert, Button, Group, List, SegmentedControl, Skeleton, Stack, Text } from '@mantine/core';
import dynamic from 'next/dynamic';
import { useCallback, useMemo, useState } from 'react';
import { problemOf } from '@/ui/data/problem.ts';
import { AdoptDialog } from './adopt-dialog.tsx';
import { ConfigForm } from './config-form.tsx';
import { fieldErrorsOf, problemTypeOf } from './config-problem.ts';
import { documentText, parseDocument, type JsonObject } from './document-text.ts';
import type { Draft } from './draft.ts';
import { SaveDialog } from './save-dialog.tsx';
import { SecretsSection } from './secrets-section.tsx';

const DocumentEditor = dynamic(() => import('./document-editor.tsx'), {
  ssr: false,
  loading: () => <Skeleton height={240} data-testid="config-editor-loading" />,
});

const passwordRefs = (document: JsonObject | undefined): string[] =>
  Array.isArray(document?.bridges)
    ? (document.bridges as unknown[]).flatMap((bridge) => {
        const ref = (bridge as { passwordRef?: unknown } | null)?.passwordRef;
        return typeof ref === 'string' ? [ref] : [];
      })
    : [];

export function DeclaredTab({
  clusterId,
  draft,
  current,
  schema,
  onDraft,
  onDiscard,
  onSaved,
}: {
  clusterId: string;
  draft: Draft;
  /** The current revision's number and text (0 and undefined when nothing is declared yet). */
  current: { number: number; text: string | undefined };
  schema: Record<string, unknown> | undefined;
  onDraft: (draft: Draft) => void;
  /** Back to the current revision (and following it again). */
  onDiscard: () => void;
  onSaved: (revision: number) => void;
}) {
  const [view, setView] = useState<'editor' | 'form'>('editor');
  const [saving, setSaving] = useState(false);
  const [adopting, setAdopting] = useState(false);
  const [failure, setFailure] = useState<unknown>(undefined);
  const parsed = useMemo(() => parseDocument(draft.text), [draft.text]);
  const document = 'document' in parsed ? parsed.document : undefined;
  const fieldErrors = useMemo(() => fieldErrorsOf(failure), [failure]);
  const conflict = problemTypeOf(failure) === 'revision-conflict';
  const changed = current.text === undefined ? draft.text.trim() !== '{}' : draft.text !== current.text;
  const edit = (text: string) => onDraft({ ...draft, text });
  const onFailed = useCallback((error: unknown) => setFailure(error), []);

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Group gap="sm">
          <SegmentedControl
            value={view}
            onChange={(value) => setView(value === 'form' ? 'form' : 'editor')}
            data={[
              { value: 'editor', label: 'Editor' },
              { value: 'form', label: 'Form' },
            ]}
            aria-label="How to edit the document"
          />
          <Text size="sm" c="dimmed" data-testid="draft-origin">
            {draft.origin}
            {changed ? ', changed' : ''}
            {draft.baseRevision !== current.number
              ? `; revision ${String(current.number)} was saved since it started from ${String(draft.baseRevision)}`
              : ''}
          </Text>
        </Group>
        <Group gap="xs">
          <Button variant="default" onClick={() => setAdopting(true)}>
            Adopt the live configuration
          </Button>
          <Button
            variant="default"
            disabled={!changed && draft.baseRevision === current.number}
            onClick={() => {
              setFailure(undefined);
              onDiscard();
            }}
          >
            Discard changes
          </Button>
          <Button
            disabled={!document}
            onClick={() => {
              setFailure(undefined);
              setSaving(true);
            }}
          >
            Save…
          </Button>
        </Group>
      </Group>
      {view === 'editor' || !document ? (
        <>
          {view === 'form' && (
            <Alert color="orange" variant="light">
              The form needs the document to be valid JSON: {'error' in parsed ? parsed.error : ''}
            </Alert>
          )}
          <DocumentEditor value={draft.text} onChange={edit} schema={schema} fieldErrors={fieldErrors} />
        </>
      ) : (
        <ConfigForm document={document} onChange={(next) => edit(documentText(next))} fieldErrors={fieldErrors} />
      )}
      {failure !== undefined && !saving && (
        <Alert
          color={conflict ? 'orange' : 'red'}
          title={problemOf(failure).title}
          data-testid="declared-problem"
          withCloseButton
          onClose={() => setFailure(undefined)}
        >
          <Stack gap="xs">
            <Text size="sm">{problemOf(failure).detail}</Text>
            {fieldErrors.length > 0 && (
              <List size="sm" ff="monospace" data-testid="declared-field-errors">
                {fieldErrors.map((error) => (
                  <List.Item key={`${error.path}:${error.message}`}>
                    {error.path || 'document'}: {error.message}
                  </List.Item>
                ))}
              </List>
            )}
            {conflict && (
              <Group gap="xs">
                <Button
                  size="xs"
                  variant="light"
                  onClick={() => {
                    setFailure(undefined);
                    onDraft({
                      ...draft,
                      baseRevision: current.number,
                      origin: `your change on revision ${String(current.number)}`,
                    });
                  }}
                >
                  Keep my text on top of revision {current.number}
                </Button>
                <Button
                  size="xs"
                  variant="default"
                  onClick={() => {
                    setFailure(undefined);
                    onDiscard();
                  }}
                >
                  Load revision {current.number} (drops my change)
                </Button>
              </Group>
            )}
          </Stack>
        </Alert>
      )}
      {saving && document && (
        <SaveDialog
          clusterId={clusterId}
          draft={draft}
          document={document}
          onClose={() => setSaving(false)}
          onFailed={onFailed}
          onSaved={(saved) => {
            setSaving(false);
            setFailure(undefined);
            onSaved(saved.number);
          }}
        />
      )}
      {adopting && (
        <AdoptDialog
          clusterId={clusterId}
          baseRevision={current.number}
          schema={schema}
          onClose={() => setAdopting(false)}
          onAdopted={(revision) => {
            setAdopting(false);
            onSaved(revision);
          }}
          onReview={(text) => {
            setAdopting(false);
            onDraft({ text, baseRevision: current.number, origin: 'adopted from the live cluster (not saved)' });
          }}
        />
      )}
      <SecretsSection clusterId={clusterId} referenced={passwordRefs(document)} />
    </Stack>
  );
}

export const originOf = (revision: number) =>
  revision === 0 ? 'Nothing declared yet' : `Revision ${String(revision)}`;
