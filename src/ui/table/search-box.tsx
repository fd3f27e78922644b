'use client';
// A free-text filter: what is typed shows at once, the URL (and so the query) follows after a short pause.
import { CloseButton, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';

export function SearchBox({
  value,
  onChange,
  placeholder,
  label = 'Search',
  showLabel = false,
  width = 280,
}: {
  value: string;
  onChange: (q: string) => void;
  placeholder: string;
  label?: string;
  /** Filters show their label above the box; the table's own search box is labelled for screen readers only. */
  showLabel?: boolean;
  width?: number;
}) {
  const [text, setText] = useState(value);
  const [committed, setCommitted] = useState(value);
  // The URL changed under us (back, reset): show what it says.
  if (value !== committed) {
    setCommitted(value);
    setText(value);
  }
  const commit = useDebouncedCallback((next: string) => {
    setCommitted(next);
    onChange(next);
  }, 300);
  return (
    <TextInput
      aria-label={showLabel ? undefined : label}
      label={showLabel ? label : undefined}
      placeholder={placeholder}
      leftSection={showLabel ? undefined : <IconSearch size={16} />}
      value={text}
      onChange={(event) => {
        setText(event.currentTarget.value);
        commit(event.currentTarget.value);
      }}
      rightSection={
        text ? (
          <CloseButton
            aria-label={`Clear ${label.toLowerCase()}`}
            size="sm"
            onClick={() => {
              setText('');
              setCommitted('');
              onChange('');
            }}
          />
        ) : null
      }
      w={width}
    />
  );
}
