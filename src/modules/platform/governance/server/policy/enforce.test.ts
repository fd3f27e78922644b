import { describe, expect, it } from 'vitest';
import { enforceFields, enforceMessage, enforceRecord } from './enforce.ts';
import { compilePolicy, DEFAULT_POLICY, type ContentPolicy } from './policy.ts';

const policy: ContentPolicy = {
  ...DEFAULT_POLICY,
  version: 7,
  rules: [
    { id: 'customer-name', target: 'json-path', match: '$..customer.name', dataClass: 'personal-contact' },
    { id: 'api-key', target: 'header', match: 'x-api-*', dataClass: 'credential' },
    { id: 'ssn', target: 'property', match: 'ssn', dataClass: 'other-sensitive', addressPattern: 'hr.#' },
    { id: 'xml-email', target: 'xml-path', match: '//contact', dataClass: 'personal-contact' },
    { id: 'order-secret', target: 'text-pattern', match: 'secret=\\w+', dataClass: 'credential' },
  ],
};
const compiled = compilePolicy(policy);
const masked = { clear: false };

describe('the content policy', () => {
  it('masks nested JSON by rule and by detector, keeping everything else', () => {
    const body = JSON.stringify({
      orders: [
        {
          id: 1764074096000,
          customer: { name: 'Jane Doe', card: '4111 1111 1111 1111' },
          note: 'call +44 20 7946 0958',
        },
      ],
      total: 12.5,
    });
    const governed = enforceMessage(compiled, { address: 'orders', body: { kind: 'text', text: body } }, masked);
    expect(governed.value.body).toEqual({
      kind: 'json',
      value: {
        orders: [
          {
            id: 1764074096000,
            customer: { name: '[masked personal contact]', card: '•••• •••• •••• 1111' },
            note: 'call [masked personal contact]',
          },
        ],
        total: 12.5,
      },
    });
    expect(governed.redactions).toEqual([
      {
        location: 'body$.orders.0.customer.name',
        dataClass: 'personal-contact',
        action: 'mask',
        by: 'rule:customer-name',
      },
      { location: 'body$.orders.0.customer.card', dataClass: 'payment-card', action: 'partial', by: 'detector:card' },
      { location: 'body$.orders.0.note', dataClass: 'personal-contact', action: 'mask', by: 'detector:phone' },
    ]);
    expect(governed.policyVersion).toBe(7);
    // What no rule covered is a finding, its array indices generalised.
    expect(governed.findings.map((finding) => [finding.location, finding.detector])).toEqual([
      ['body$.orders.*.customer.card', 'card'],
      ['body$.orders.*.note', 'phone'],
    ]);
  });

  it('drops credentials for everyone, even a caller with clear access, and shows the rest marked', () => {
    const content = {
      address: 'hr.payroll',
      headers: { 'X-Api-Key': 'k-123', Authorization: 'Bearer abcdefghijk' },
      properties: { ssn: '123-45-6789', iban: 'DE89370400440532013000' },
      body: { kind: 'text' as const, text: 'ok secret=hunter2 for jane@example.com' },
    };
    const clear = enforceMessage(compiled, content, { clear: true });
    expect(clear.value.headers).toEqual({ Authorization: '[dropped credential]' });
    expect(clear.value.properties).toEqual({ ssn: '123-45-6789', iban: 'DE89370400440532013000' });
    expect(clear.value.body).toEqual({ kind: 'text', value: 'ok [dropped credential] for jane@example.com' });
    expect(clear.clearCounts).toEqual({ 'other-sensitive': 1, 'bank-account': 1, 'personal-contact': 1 });
    expect(clear.redactions.filter((redaction) => redaction.action === 'clear')).toHaveLength(3);

    const hidden = enforceMessage(compiled, content, masked);
    expect(hidden.value.properties).toEqual({ ssn: '[masked sensitive]', iban: '••••••••••••••••••3000' });
    expect(hidden.clearCounts).toEqual({});
  });

  it('applies a rule only on the addresses its pattern matches', () => {
    const other = enforceMessage(compiled, { address: 'sales.eu', properties: { ssn: '123-45-6789' } }, masked);
    expect(other.value.properties).toEqual({ ssn: '123-45-6789' });
  });

  it('masks XML element text and attributes by path and detector, keeping the document as it was', () => {
    const xml =
      '<?xml version="1.0"?><order id="7"><contact>Jane Doe</contact><pay card="5555555555554444">ok</pay><!-- n --></order>';
    const governed = enforceMessage(
      compiled,
      { body: { kind: 'text', text: xml, contentType: 'application/xml' } },
      masked,
    );
    expect(governed.value.body).toEqual({
      kind: 'xml',
      value:
        '<?xml version="1.0"?><order id="7"><contact>[masked personal contact]</contact><pay card="••••••••••••4444">ok</pay><!-- n --></order>',
    });
    expect(governed.redactions.map((redaction) => redaction.location)).toEqual([
      'body/order/contact',
      'body/order/pay/@card',
    ]);
  });

  it('fails closed: unparsable JSON or XML, binary and compressed bodies are withheld with the reason', () => {
    const badJson = enforceMessage(compiled, { body: { kind: 'text', text: '{"card": "4111111111111111"' } }, masked);
    expect(badJson.value.body).toMatchObject({ kind: 'withheld' });
    expect((badJson.value.body as { reason: string }).reason).toMatch(/does not parse/);
    const badXml = enforceMessage(compiled, { body: { kind: 'text', text: '<a><b>4111111111111111</a>' } }, masked);
    expect((badXml.value.body as { reason: string }).reason).toMatch(/not well-formed/);
    const binary = enforceMessage(compiled, { body: { kind: 'bytes', size: 512 } }, masked);
    expect(binary.value.body).toEqual({
      kind: 'withheld',
      reason: 'binary content (512 bytes) cannot be inspected, so it is not shown',
    });
    const zipped = enforceMessage(compiled, { body: { kind: 'bytes', size: 9, compressed: true } }, masked);
    expect((zipped.value.body as { reason: string }).reason).toMatch(/compressed/);
  });

  it('governs a record of named values (event properties, audit parameters) like message properties', () => {
    const governed = enforceRecord(
      compiled,
      { _AMQ_User: 'jane@example.com', count: 3, nested: { token: 'Bearer abcdefghijk' } },
      { clear: false },
    );
    expect(governed.value).toEqual({
      _AMQ_User: '[masked personal contact]',
      count: 3,
      nested: { token: '[dropped credential]' },
    });
  });

  it('masks ids, headers and property names, and the text inside bytes; withholds bytes that are not text', () => {
    const card = '4111111111111111';
    const content = {
      address: 'orders',
      headers: {
        messageId: `order-${card}`,
        correlationId: Buffer.from(`pan ${card}`),
        to: 'payouts.de89370400440532013000',
        groupId: 'GB29NWBK60161331926819',
        userId: Buffer.from([0xff, 0x00, 0x13, 0x37]),
      },
      properties: { [`card-${card}`]: 'x', plain: Buffer.from('nothing here') },
    };
    const governed = enforceMessage(compiled, content, masked);
    const shown = JSON.stringify(governed.value);
    expect(shown).not.toMatch(/4111111111111111|de89370400440532013000|GB29NWBK6016/i);
    expect(governed.value.headers).toMatchObject({
      messageId: 'order-••••••••••••1111',
      correlationId: Buffer.from('pan ••••••••••••1111').toString('base64'),
      to: 'payouts.••••••••••••••••••3000',
      userId: '[withheld: 4 bytes that are not text]',
    });
    expect(governed.value.properties).toEqual({
      'card-••••••••••••1111': 'x',
      plain: Buffer.from('nothing here').toString('base64'),
    });
    expect(governed.renamed).toEqual({ [`property:card-${card}`]: 'card-••••••••••••1111' });
    expect(governed.redactions.map((redaction) => [redaction.location, redaction.by])).toContainEqual([
      'property-name',
      'detector:card',
    ]);

    const clear = enforceMessage(compiled, content, { clear: true });
    expect(clear.value.headers).toMatchObject({ messageId: `order-${card}`, userId: '/wATNw==' });
    expect(Object.keys(clear.value.properties)).toContain(`card-${card}`);
    expect(clear.clearCounts).toMatchObject({ 'payment-card': 3, 'bank-account': 2, 'other-sensitive': 1 });
  });

  it('governs the names and filters a list shows, with detectors only', () => {
    const fields = { name: 'orders.4111111111111111', filter: "pan = '4111111111111111'", users: ['ops', 'ab'] };
    expect(enforceFields(compiled, fields, masked).value).toEqual({
      name: 'orders.••••••••••••1111',
      filter: "pan = '••••••••••••1111'",
      users: ['ops', 'ab'],
    });
    const clear = enforceFields(compiled, fields, { clear: true });
    expect(clear.value).toEqual(fields);
    expect(clear.clearCounts).toEqual({ 'payment-card': 2 });
    expect(clear.findings).toEqual([]);
  });
});
