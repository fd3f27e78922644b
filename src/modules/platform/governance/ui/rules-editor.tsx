'use client';
// The policy's rules in the shared table, a form that adds one, and each rule's removal; nothing is in force until
// the screen puts the draft in force.
import { Button, Code, Group, Select, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { Column } from '@/ui/table/column.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { pageLocally, useListState } from '@/ui/table/list-state.ts';
import type { Catalogue, Draft, DraftRule } from './policy-draft.ts';

const TARGET_HELP: Record<string, string> = {
  header: 'header name, * wildcard',
  property: 'property name, * wildcard',
  'json-path': '$.customer.card, $..email',
  'xml-path': '/order/customer/email, //email',
  'text-pattern': 'a regular expression',
};

export function RulesEditor({
  draft,
  catalogue,
  onChange,
}: {
  draft: Draft;
  catalogue: Catalogue;
  onChange: (rules: DraftRule[]) => void;
}) {
  const list = useListState({ sort: 'id', prefix: 'rules', pageSize: 10 });
  const [target, setTarget] = useState<DraftRule['target']>('json-path');
  const [match, setMatch] = useState('');
  const [addressPattern, setAddressPattern] = useState('');
  const [dataClass, setDataClass] = useState<DraftRule['dataClass']>('personal-contact');
  const [id, setId] = useState('');
  const rows = draft.rules.map((rule) => ({ ...rule, key: rule.id }));
  const columns: Column<DraftRule & { key: string }>[] = [
    { id: 'id', header: 'Rule', sortField: 'id', cell: (rule) => rule.id },
    { id: 'target', header: 'On', sortField: 'target', cell: (rule) => rule.target },
    { id: 'match', header: 'Matches', cell: (rule) => <Code>{rule.match}</Code> },
    { id: 'address', header: 'Addresses', cell: (rule) => rule.addressPattern ?? 'all' },
    { id: 'dataClass', header: 'Class', sortField: 'dataClass', cell: (rule) => rule.dataClass },
    {
      id: 'remove',
      header: '',
      width: 90,
      cell: (rule) => (
        <Button
          size="compact-xs"
          variant="subtle"
          color="red"
          onClick={() => onChange(draft.rules.filter((other) => other.id !== rule.id))}
          aria-label={`Remove rule ${rule.id}`}
        >
          Remove
        </Button>
      ),
    },
  ];
  const page = pageLocally(rows, list.state, {
    text: (rule) => `${rule.id} ${rule.match} ${rule.dataClass}`,
    sortValue: (rule, field) => (field === 'target' ? rule.target : field === 'dataClass' ? rule.dataClass : rule.id),
  });
  const ruleId = id.trim() || `${dataClass}-${String(draft.rules.length + 1)}`;
  const taken = draft.rules.some((rule) => rule.id === ruleId);
  return (
    <>
      <DataTable
        tableId="governance-rules"
        label="Rules"
        columns={columns}
        rowKey={(rule) => rule.key}
        list={list}
        query={{ data: page, error: null, isPending: false, isFetching: false, refetch: () => undefined }}
        searchPlaceholder="Search rules"
        empty={{
          title: 'No rules',
          description: 'The detectors still run everywhere; a rule classifies a field they miss.',
        }}
      />
      <Group align="flex-end" gap="xs" mt="sm" role="group" aria-label="Add a rule">
        <Select
          label="On"
          w={140}
          data={catalogue.targets}
          value={target}
          onChange={(value) => value && setTarget(value)}
          allowDeselect={false}
        />
        <TextInput
          label="Matches"
          placeholder={TARGET_HELP[target]}
          w={240}
          value={match}
          onChange={(event) => setMatch(event.currentTarget.value)}
        />
        <TextInput
          label="Addresses"
          placeholder="all (or orders.#)"
          w={150}
          value={addressPattern}
          onChange={(event) => setAddressPattern(event.currentTarget.value)}
        />
        <Select
          label="Class"
          w={170}
          data={catalogue.dataClasses}
          value={dataClass}
          onChange={(value) => value && setDataClass(value)}
          allowDeselect={false}
        />
        <TextInput
          label="Rule id"
          placeholder={ruleId}
          w={160}
          value={id}
          onChange={(event) => setId(event.currentTarget.value)}
          error={taken ? 'taken' : undefined}
        />
        <Button
          disabled={match.trim() === '' || taken}
          onClick={() => {
            onChange([
              ...draft.rules,
              {
                id: ruleId,
                target,
                match: match.trim(),
                dataClass,
                ...(addressPattern.trim() ? { addressPattern: addressPattern.trim() } : {}),
              },
            ]);
            setMatch('');
            setId('');
          }}
        >
          Add rule
        </Button>
      </Group>
    </>
  );
}
