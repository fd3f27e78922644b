// Encodes messages with rhea exactly as the send path does and reads them back the way browse does:
// catches lost types, re-encoded bodies and missing header/properties fields without a broker.
import rhea from 'rhea';
import { describe, expect, it } from 'vitest';
import { nativeMessageFromBytes } from './native-message.ts';
import { encodeSendRequest } from './send-request.ts';

const allBytes = Buffer.from(Array.from({ length: 256 }, (_, index) => index));

function roundTrip(request: Parameters<typeof encodeSendRequest>[0]) {
  return nativeMessageFromBytes(rhea.message.encode(encodeSendRequest(request)));
}

describe('native message encoding', () => {
  it('keeps every byte of a binary body', () => {
    const message = roundTrip({ address: 'q', body: { encoding: 'base64', base64: allBytes.toString('base64') } });
    expect(Buffer.from(message.body.base64, 'base64').equals(allBytes)).toBe(true);
    expect(message.body).toMatchObject({ encoding: 'binary', section: 'data', sizeBytes: 256 });
    expect(message.properties.contentType).toBe('application/octet-stream');
  });

  it('sends text as an AMQP string and JSON as UTF-8 bytes with a JSON content type', () => {
    const text = roundTrip({ address: 'q', body: { encoding: 'text', text: 'Grüße, 世界 🚢' } });
    expect(Buffer.from(text.body.base64, 'base64').toString('utf8')).toBe('Grüße, 世界 🚢');
    expect(text.body).toMatchObject({ encoding: 'text', section: 'amqp-value' });

    const json = roundTrip({ address: 'q', body: { encoding: 'json', json: { vin: 'WVW1', speed: 88.5 } } });
    expect(JSON.parse(Buffer.from(json.body.base64, 'base64').toString('utf8'))).toEqual({ vin: 'WVW1', speed: 88.5 });
    expect(json.body).toMatchObject({ encoding: 'json', section: 'data' });
  });

  it('keeps the AMQP type of application properties and annotations', () => {
    const message = roundTrip({
      address: 'q',
      body: { encoding: 'text', text: 'x' },
      applicationProperties: {
        anInt: { type: 'int', value: 5 },
        aLong: { type: 'long', value: 5 },
        aHugeLong: { type: 'long', value: '9007199254740993' },
        aDouble: { type: 'double', value: 1 },
        aBoolean: { type: 'boolean', value: false },
        aString: { type: 'string', value: 'five' },
        aTimestamp: { type: 'timestamp', value: 1_763_780_000_000 },
      },
      messageAnnotations: { 'x-opt-delivery-delay': { type: 'long', value: 0 } },
    });
    expect(message.applicationProperties).toEqual({
      anInt: { type: 'int', value: 5 },
      aLong: { type: 'long', value: 5 },
      aHugeLong: { type: 'long', value: '9007199254740993' },
      aDouble: { type: 'double', value: 1 },
      aBoolean: { type: 'boolean', value: false },
      aString: { type: 'string', value: 'five' },
      aTimestamp: { type: 'timestamp', value: 1_763_780_000_000 },
    });
    expect(message.messageAnnotations['x-opt-delivery-delay']).toEqual({ type: 'long', value: 0 });
  });

  it('carries ids, correlation, expiry and the durable flag', () => {
    const message = roundTrip({
      address: 'q',
      body: { encoding: 'text', text: 'x' },
      messageId: 'm-1',
      correlationId: 'c-9',
      durable: true,
      priority: 7,
      ttlMs: 60_000,
      absoluteExpiryTime: 1_900_000_000_000,
    });
    expect(message.properties.messageId).toEqual({ type: 'string', value: 'm-1' });
    expect(message.properties.correlationId).toEqual({ type: 'string', value: 'c-9' });
    expect(message.properties.absoluteExpiryTime).toBe(1_900_000_000_000);
    expect(message.header).toMatchObject({ durable: true, priority: 7, ttl: 60_000 });
    expect(message.channel).toBe('native');
  });

  it('describes a message with no body as empty', () => {
    const message = nativeMessageFromBytes(rhea.message.encode({ application_properties: { a: 1 } }));
    expect(message.body.encoding).toBe('empty');
  });
});
