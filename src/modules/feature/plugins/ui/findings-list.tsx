import { Code, List, Text } from '@mantine/core';

export interface Finding {
  readonly code: string;
  readonly entry?: string;
  readonly message: string;
}

/** Every finding of a validation, not just the first: code, the archive entry it is about, and what is wrong. */
export function FindingsList({ findings }: { findings: readonly Finding[] }) {
  if (findings.length === 0) return null;
  return (
    <List size="sm" spacing={4} data-testid="plugin-findings">
      {findings.map((finding, index) => (
        <List.Item key={`${finding.code}-${String(index)}`} data-testid="plugin-finding" data-code={finding.code}>
          <Code>{finding.code}</Code>
          {finding.entry && (
            <Text span size="sm" c="dimmed">
              {' '}
              in {finding.entry}
            </Text>
          )}
          <Text span size="sm">
            : {finding.message}
          </Text>
        </List.Item>
      ))}
    </List>
  );
}

/** The findings a refused upload or operation carries in its problem (422 plugin-invalid), if any. */
export function findingsOf(problem: object): readonly Finding[] {
  const findings = (problem as { findings?: unknown }).findings;
  return Array.isArray(findings) ? (findings as Finding[]) : [];
}
