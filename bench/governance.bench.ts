// The content policy's throughput on one core: mixed JSON, XML and plain-text payloads (a few KB each, a sensitive
// value in one of ten fields, the rest ordinary ids, timestamps, amounts and words) through the one enforcement
// function with every detector on and a few rules. Prints MB/s per kind and overall. Target (issue 18): ≥ 50 MB/s.
//   npm run bench:governance
import { enforceMessage, type MessageContent } from '../src/modules/platform/governance/server/policy/enforce.ts';
import { compilePolicy, DEFAULT_POLICY } from '../src/modules/platform/governance/server/policy/policy.ts';
import { reportFigure } from './report.ts';

const TARGET_MB_PER_S = 50;
const SECONDS_PER_KIND = 3;

const policy = compilePolicy({
  ...DEFAULT_POLICY,
  version: 1,
  rules: [
    { id: 'names', target: 'json-path', match: '$..customer.name', dataClass: 'personal-contact' },
    { id: 'xml-names', target: 'xml-path', match: '//customer/name', dataClass: 'personal-contact' },
    { id: 'api-key', target: 'header', match: 'x-api-key', dataClass: 'credential' },
  ],
});

const words = ['shipped', 'pending', 'warehouse', 'priority', 'express', 'returned', 'invoice', 'parcel'];
const sensitive = ['4111 1111 1111 1111', 'DE89370400440532013000', 'jane.doe@example.com', '+44 20 7946 0958'];

function order(index: number) {
  return {
    id: `ORD-${String(1_000_000 + index)}`,
    createdAt: new Date(1_764_074_096_000 + index * 1_000).toISOString(),
    epoch: 1_764_074_096_000 + index,
    amount: (index % 997) + 0.99,
    status: words[index % words.length],
    customer: { name: `Customer ${String(index)}`, tier: index % 3 },
    note:
      index % 10 === 0
        ? `contact ${sensitive[index % sensitive.length] ?? ''}`
        : `${words[(index + 3) % words.length] ?? ''} ${String(index)}`,
    lines: Array.from({ length: 8 }, (_, line) => ({
      sku: `SKU-${String(index * 10 + line)}`,
      qty: line + 1,
      price: 9.5 + line,
    })),
  };
}

function jsonPayload(index: number): string {
  return JSON.stringify({ orders: Array.from({ length: 6 }, (_, offset) => order(index * 6 + offset)) });
}

function xmlPayload(index: number): string {
  return `<?xml version="1.0"?><orders>${Array.from({ length: 6 }, (_, offset) => {
    const o = order(index * 6 + offset);
    return `<order id="${o.id}" created="${o.createdAt}"><customer><name>${o.customer.name}</name></customer><status>${String(o.status)}</status><note>${o.note}</note>${o.lines
      .map((line) => `<line sku="${line.sku}" qty="${String(line.qty)}">${String(line.price)}</line>`)
      .join('')}</order>`;
  }).join('')}</orders>`;
}

function textPayload(index: number): string {
  return Array.from({ length: 40 }, (_, line) => {
    const o = order(index * 40 + line);
    return `${o.createdAt} ${o.id} ${String(o.status)} amount=${String(o.amount)} ${o.note}`;
  }).join('\n');
}

const kinds: Record<string, (index: number) => string> = { json: jsonPayload, xml: xmlPayload, text: textPayload };
let totalBytes = 0;
let totalMs = 0;
const perKind: string[] = [];
for (const [kind, make] of Object.entries(kinds)) {
  const payloads: MessageContent[] = Array.from({ length: 500 }, (_, index) => ({
    address: 'orders.eu',
    headers: { 'x-api-key': 'k-1', 'content-type': kind },
    properties: { region: 'eu', attempt: index % 3 },
    body: { kind: 'text', text: make(index) },
  }));
  const bytes = payloads.reduce(
    (sum, payload) => sum + (payload.body?.kind === 'text' ? payload.body.text.length : 0),
    0,
  );
  for (const payload of payloads.slice(0, 50)) enforceMessage(policy, payload, { clear: false }); // warm up
  let processed = 0;
  let redactions = 0;
  const started = performance.now();
  while (performance.now() - started < SECONDS_PER_KIND * 1_000) {
    for (const payload of payloads) redactions += enforceMessage(policy, payload, { clear: false }).redactions.length;
    processed += bytes;
  }
  const ms = performance.now() - started;
  totalBytes += processed;
  totalMs += ms;
  perKind.push(`${kind} ${(processed / 1_048_576 / (ms / 1_000)).toFixed(1)}`);
  console.log(
    `${kind.padEnd(5)} ${(processed / 1_048_576 / (ms / 1_000)).toFixed(1).padStart(6)} MB/s  ` +
      `(payloads of ${(bytes / payloads.length / 1024).toFixed(1)} KB, ${String(redactions)} values hidden)`,
  );
}
const overall = totalBytes / 1_048_576 / (totalMs / 1_000);
console.log(
  `mixed ${overall.toFixed(1).padStart(6)} MB/s on one core (target ≥ ${String(TARGET_MB_PER_S)}): ${overall >= TARGET_MB_PER_S ? 'met' : 'MISSED'}`,
);
reportFigure({
  id: 'governance.mixed-throughput',
  figure: 'Content policy on one core: mixed JSON, XML and text payloads of a few KB, every detector and three rules',
  target: `≥ ${String(TARGET_MB_PER_S)} MB/s`,
  seen: `${overall.toFixed(1)} MB/s mixed (${perKind.join(', ')})`,
  holds: overall >= TARGET_MB_PER_S,
});
