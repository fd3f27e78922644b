'use client';
// The message browser's JMS selector field: applied on Enter or with the button, so a half-typed selector is never
// sent to the brokers.
import { Button, Group, TextInput } from '@mantine/core';
import { useState } from 'react';

export function SelectorInput({ value, onApply }: { value: string; onApply: (selector: string) => void }) {
  const [text, setText] = useState(value);
  const [applied, setApplied] = useState(value);
  // The URL changed under us (back, reset): show what it says.
  if (value !== applied) {
    setApplied(value);
    setText(value);
  }
  const apply = () => onApply(text.trim());
  return (
    <Group gap="xs" align="flex-end">
      <TextInput
        label="Selector"
        placeholder="e.g. priority > 4 AND region = 'eu'"
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') apply();
        }}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        w={360}
      />
      <Button variant="default" onClick={apply} disabled={text.trim() === value}>
        Apply
      </Button>
    </Group>
  );
}
