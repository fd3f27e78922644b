'use client';
// The SQL editor: CodeMirror 6 (ADR 23) with SQL highlighting, completion of the cluster's address names and
// property keys, Ctrl/Cmd+Enter to run, and the token a syntax error points at underlined with the message on hover.
// Browser-only (it measures the DOM), so the console loads it with next/dynamic.
import { sql, StandardSQL } from '@codemirror/lang-sql';
import { setDiagnostics } from '@codemirror/lint';
import { Facet } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { useComputedColorScheme } from '@mantine/core';
import CodeMirror, { type ReactCodeMirrorRef } from '@uiw/react-codemirror';
import { useEffect, useMemo, useRef, type KeyboardEvent } from 'react';
import { fleetCompletions, type CompletionNames } from './sql-completions.ts';
import { syntaxDiagnostic } from './sql-diagnostics.ts';
import type { SqlSyntaxError } from './sql-problem.ts';

export interface SqlEditorProps {
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly onRun: () => void;
  readonly names: CompletionNames;
  readonly syntaxError: SqlSyntaxError | undefined;
}

/** The names the completion offers, held in the editor's state (replaced when the cluster's names change). */
const completionNames = Facet.define<CompletionNames, CompletionNames>({
  combine: (values) => values[0] ?? { addresses: [], propertyKeys: [] },
});

const FIXED_EXTENSIONS = [
  sql({ dialect: StandardSQL, upperCaseKeywords: true }),
  StandardSQL.language.data.of({ autocomplete: fleetCompletions((context) => context.state.facet(completionNames)) }),
  EditorView.lineWrapping,
  EditorView.contentAttributes.of({ 'aria-label': 'SQL query' }),
];

function markSyntaxError(view: EditorView, error: SqlSyntaxError | undefined) {
  const diagnostics = error ? [syntaxDiagnostic(error, view.state.doc.length)] : [];
  view.dispatch(setDiagnostics(view.state, diagnostics));
}

const isRunKey = (event: KeyboardEvent) => event.key === 'Enter' && (event.ctrlKey || event.metaKey);

export default function SqlEditor({ value, onChange, onRun, names, syntaxError }: SqlEditorProps) {
  const editor = useRef<ReactCodeMirrorRef>(null);
  const scheme = useComputedColorScheme('light');
  const extensions = useMemo(() => [...FIXED_EXTENSIONS, completionNames.of(names)], [names]);

  useEffect(() => {
    const view = editor.current?.view;
    if (view) markSyntaxError(view, syntaxError);
  }, [syntaxError]);

  return (
    // Ctrl/Cmd+Enter is taken before CodeMirror sees it (its own binding inserts a line).
    <div
      onKeyDownCapture={(event) => {
        if (!isRunKey(event)) return;
        event.preventDefault();
        event.stopPropagation();
        onRun();
      }}
    >
      <CodeMirror
        ref={editor}
        value={value}
        onChange={onChange}
        extensions={extensions}
        theme={scheme}
        minHeight="120px"
        maxHeight="360px"
        basicSetup={{ foldGutter: false, highlightActiveLine: false }}
        // An error that arrived before the editor had loaded (a link to a bad query) is marked once it is there.
        onCreateEditor={(view) => markSyntaxError(view, syntaxError)}
        data-testid="sql-editor"
      />
    </div>
  );
}
