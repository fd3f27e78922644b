// Every public mutation goes through the broker command sequence or the audit service, and only the sequence holds
// the broker's write operations:
// - the write operations (`brokerWrites`, the native `sendMessage`) are imported by production code only in the
//   commands module's fan-out phase (fan-out.ts), and the Jolokia operations that change a broker are spelled only
//   in the broker module's broker-writes.ts (createQueues/destroyQueues seed test fleets and benchmarks, nothing
//   else);
// - the one second sequence is capture reconciliation (spec "Broker writes, safety and audit": it has its own audited
//   sequence that acts on drift): its tap operations (`captureWrites`) are spelled only in the broker module's
//   capture-writes.ts and imported only by the sql module's reconciler apply step, which audits before each call;
// - the brokerconfig writes are spelled only in the broker module's config-writes.ts and handed out as
//   `brokerWrites.config`, so only the sequence's fan-out reaches them;
// - every mutation procedure of the real app router reaches `runBrokerCommand`, `audited`, `openAudit` or
//   `recordAuditEvent`, directly or through the functions it calls (followed by name across src/, a few levels).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appRouter } from '../../src/installation/app-router.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

function sourcesOf(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourcesOf(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.includes('.test.') ? [full] : [];
  });
}

const production = sourcesOf(path.join(ROOT, 'src')).map((file) => ({
  file: path.relative(ROOT, file),
  text: readFileSync(file, 'utf8'),
}));

const SEQUENCE = 'src/modules/platform/commands/server/fan-out.ts';
const WRITES = 'src/modules/platform/broker/management/broker-writes.ts';
const BROKER_ENTRY = 'src/modules/platform/broker/index.ts';
const CAPTURE_WRITES = 'src/modules/platform/broker/management/capture-writes.ts';
const CONFIG_WRITES = 'src/modules/platform/broker/management/config-writes.ts';
const CAPTURE_SEQUENCE = 'src/modules/feature/sql/server/capture/apply-taps.ts';

/** Names imported from the broker module's entry by a file. */
function brokerImports(text: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(
    /import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'@\/modules\/platform\/broker\/index\.ts'/g,
  ))
    for (const name of (match[1] ?? '').split(','))
      if (!name.trim().startsWith('type ')) names.push(name.trim().split(/\s+as\s+/)[0] ?? '');
  return names.filter(Boolean);
}

// A Jolokia operation is spelled as a quoted signature: 'removeAllMessages()', 'pause(boolean)'.
const MUTATING_OPERATION =
  /'(removeAllMessages|removeMessages?|moveMessages?|retryMessages?|pause|resume|createQueue|destroyQueue|createAddress|deleteAddress|closeConnectionWithID|sendMessagesToDeadLetterAddress|sendMessage|createDivert|destroyDivert|updateDivert|updateQueue|updateAddress|addAddressSettings|removeAddressSettings|addSecuritySettings|removeSecuritySettings|createBridge|destroyBridge)\(/;

describe('broker writes', () => {
  it('are handed out only by the broker command sequence', () => {
    const importers = production
      .filter(({ file }) => file !== BROKER_ENTRY)
      .filter(({ text }) => brokerImports(text).some((name) => ['brokerWrites', 'sendMessage'].includes(name)))
      .map(({ file }) => file);
    expect(importers).toEqual([SEQUENCE]);
    const seeders = production
      .filter(({ file }) => file !== BROKER_ENTRY)
      .filter(({ text }) => brokerImports(text).some((name) => ['createQueues', 'destroyQueues'].includes(name)));
    expect(seeders.map(({ file }) => file)).toEqual([]);
  });

  it('of capture taps are handed out only to the capture reconciler’s apply step', () => {
    const importers = production
      .filter(({ file }) => file !== BROKER_ENTRY)
      .filter(({ text }) => brokerImports(text).includes('captureWrites'))
      .map(({ file }) => file);
    expect(importers).toEqual([CAPTURE_SEQUENCE]);
  });

  it('spell their Jolokia operations in one file', () => {
    const spelled = production
      .filter(
        ({ file }) =>
          ![
            WRITES,
            CAPTURE_WRITES,
            CONFIG_WRITES,
            'src/modules/platform/broker/management/broker-operations.ts',
          ].includes(file),
      )
      .filter(({ text }) => MUTATING_OPERATION.test(text))
      .map(({ file }) => file);
    expect(spelled).toEqual([]);
  });
});

// Function name → its source, for every top-level function or arrow constant of src/.
const definitions = new Map<string, string[]>();
for (const { text } of production) {
  const starts = [...text.matchAll(/^(?:export )?(?:async )?(?:function (\w+)|const (\w+) =)/gm)];
  starts.forEach((match, index) => {
    const name = match[1] ?? match[2] ?? '';
    const end = starts[index + 1]?.index ?? text.length;
    definitions.set(name, [...(definitions.get(name) ?? []), text.slice(match.index, end)]);
  });
}

const AUDITING = /\b(runBrokerCommand|audited|openAudit|recordAuditEvent)\)?\(/;

/** Whether the code reaches an auditing call within `depth` calls, following called names to their definitions. */
function reachesAudit(code: string, depth: number, seen = new Set<string>()): boolean {
  if (AUDITING.test(code)) return true;
  if (depth === 0) return false;
  const called = new Set([...code.matchAll(/(\w+)\)?\(/g)].map((match) => match[1] ?? ''));
  for (const name of called) {
    if (seen.has(name) || !definitions.has(name)) continue;
    seen.add(name);
    for (const body of definitions.get(name) ?? []) if (reachesAudit(body, depth - 1, seen)) return true;
  }
  return false;
}

/** Mutations by method only: they change nothing and keep nothing, so there is nothing to audit. */
const CHANGES_NOTHING: Record<string, string> = {
  'governance.test': 'runs a sample through a draft policy and answers; nothing is stored',
};

type Procedure = { _def: { type?: string; resolver?: unknown } };
const mutations = Object.entries(appRouter._def.procedures as unknown as Record<string, Procedure>).filter(
  ([, procedure]) => procedure._def.type === 'mutation',
);

describe('public mutations', () => {
  it('exist', () => {
    expect(mutations.length).toBeGreaterThan(20);
  });

  it.each(mutations)('%s goes through the broker command sequence or the audit service', (name, procedure) => {
    if (name in CHANGES_NOTHING) return;
    const resolver = String(procedure._def.resolver).replace(/__vite_ssr_import_\d+__\./g, '');
    expect(reachesAudit(resolver, 4)).toBe(true);
  });
});
