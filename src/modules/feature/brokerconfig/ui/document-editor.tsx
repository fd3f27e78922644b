'use client';
// The declared document's editor: CodeMirror 6 (ADR 23) with JSON, and completion, validation and hover from the
// document's JSON schema (`brokerconfig.schema`) through codemirror-json-schema (ADR 26). A save the server refused
// marks the fields it named. Browser-only (it measures the DOM), so the screen loads it with next/dynamic.
import { json, jsonLanguage, jsonParseLinter } from '@codemirror/lang-json';
import { linter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { EditorView, hoverTooltip } from '@codemirror/view';
import { useComputedColorScheme } from '@mantine/core';
import CodeMirror, { type ReactCodeMirrorRef } from '@uiw/react-codemirror';
import {
  handleRefresh,
  jsonCompletion,
  jsonSchemaHover,
  jsonSchemaLinter,
  stateExtensions,
} from 'codemirror-json-schema';
import { useEffect, useMemo, useRef } from 'react';
import type { FieldError } from './config-problem.ts';
import { rangeOfPath } from './json-path-range.ts';

export interface DocumentEditorProps {
  readonly value: string;
  readonly onChange?: (value: string) => void;
  /** The document's JSON schema; without it the editor still checks the JSON. */
  readonly schema: Record<string, unknown> | undefined;
  readonly readOnly?: boolean;
  /** The fields a refused save named, marked where they are in the text. */
  readonly fieldErrors?: readonly FieldError[];
  readonly label?: string;
  readonly testId?: string;
}

function markFieldErrors(view: EditorView, errors: readonly FieldError[]) {
  const text = view.state.doc.toString();
  const diagnostics: Diagnostic[] = errors.map((error) => {
    const range = rangeOfPath(text, error.path) ?? { from: 0, to: Math.min(1, text.length) };
    return { ...range, severity: 'error', message: `${error.path || 'document'}: ${error.message}`, source: 'server' };
  });
  view.dispatch(setDiagnostics(view.state, diagnostics));
}

export default function DocumentEditor({
  value,
  onChange,
  schema,
  readOnly = false,
  fieldErrors = [],
  label = 'Declared configuration (JSON)',
  testId = 'config-editor',
}: DocumentEditorProps) {
  const editor = useRef<ReactCodeMirrorRef>(null);
  const scheme = useComputedColorScheme('light');
  const extensions = useMemo(() => {
    // The schema names its draft (2020-12); the validator reads the keywords this document uses either way.
    const plain = schema && Object.fromEntries(Object.entries(schema).filter(([key]) => key !== '$schema'));
    // codemirror-json-schema's bundle (`jsonSchema`), spelt out: JSON syntax errors, schema errors, completion, hover.
    return [
      json(),
      linter(jsonParseLinter()),
      linter(jsonSchemaLinter(), { needsRefresh: handleRefresh }),
      jsonLanguage.data.of({ autocomplete: jsonCompletion() }),
      hoverTooltip(jsonSchemaHover()),
      stateExtensions(plain),
      EditorView.lineWrapping,
      EditorView.contentAttributes.of({ 'aria-label': label }),
    ];
  }, [schema, label]);

  useEffect(() => {
    const view = editor.current?.view;
    if (view && fieldErrors.length > 0) markFieldErrors(view, fieldErrors);
  }, [fieldErrors]);

  return (
    <CodeMirror
      ref={editor}
      value={value}
      onChange={onChange}
      extensions={extensions}
      theme={scheme}
      readOnly={readOnly}
      editable={!readOnly}
      minHeight="240px"
      maxHeight="520px"
      basicSetup={{ highlightActiveLine: !readOnly }}
      data-testid={testId}
    />
  );
}
