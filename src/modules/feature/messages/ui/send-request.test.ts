import { describe, expect, it } from 'vitest';
import { emptySendForm, sendRequest, typedValue, type SendForm } from './send-request.ts';

const form = (change: Partial<SendForm>): SendForm => ({ ...emptySendForm('orders', 'ANYCAST'), ...change });

describe('the send form’s request', () => {
  it('builds the dry run of a text message with the default headers', () => {
    expect(sendRequest('c1', form({ bodyText: 'hello' }))).toEqual({
      input: {
        clusterId: 'c1',
        address: 'orders',
        routingType: 'ANYCAST',
        body: { type: 'text', text: 'hello' },
        headers: { durable: true, priority: 4 },
        dryRun: true,
        clear: false,
      },
      problem: undefined,
      bodyError: undefined,
    });
  });

  it('types the properties, keeps a long as digits, and sends a time to live only when positive', () => {
    const { input } = sendRequest(
      'c1',
      form({
        properties: [
          { id: 1, name: ' region ', type: 'string', value: 'eu' },
          { id: 2, name: 'big', type: 'long', value: '9007199254740993' },
          { id: 3, name: 'n', type: 'int', value: '7' },
          { id: 4, name: '', type: 'int', value: 'ignored: no name' },
        ],
        priority: '',
        ttl: 60_000,
        durable: false,
      }),
    );
    expect(input?.properties).toEqual({
      region: { type: 'string', value: 'eu' },
      big: { type: 'long', value: '9007199254740993' },
      n: { type: 'int', value: 7 },
    });
    expect(input?.headers).toEqual({ durable: false, ttlMs: 60_000 });
    expect(sendRequest('c1', form({ ttl: 0 })).input?.headers).toEqual({ durable: true, priority: 4 });
  });

  it('says the first thing wrong and builds nothing', () => {
    expect(sendRequest('c1', form({ bodyType: 'json', bodyText: '{' }))).toMatchObject({
      input: undefined,
      problem: expect.stringMatching(/^Not JSON/) as unknown,
      bodyError: expect.stringMatching(/^Not JSON/) as unknown,
    });
    expect(sendRequest('c1', form({ bodyType: 'bytes', bodyText: 'abc' })).problem).toBe('Not base64');
    const twice = [
      { id: 1, name: 'a', type: 'string' as const, value: '1' },
      { id: 2, name: 'a', type: 'string' as const, value: '2' },
    ];
    expect(sendRequest('c1', form({ properties: twice })).problem).toBe('The property a is there twice');
    const bad = [{ id: 1, name: 'n', type: 'int' as const, value: '1.5' }];
    expect(sendRequest('c1', form({ properties: bad })).problem).toBe('The property n must be a whole number');
    expect(sendRequest('c1', form({ address: '  ' })).problem).toBe('Give an address');
  });

  it('reads a bytes body as base64 with its content type', () => {
    const { input } = sendRequest('c1', form({ bodyType: 'bytes', bodyText: 'SGVs\nbG8=', contentType: ' a/b ' }));
    expect(input?.body).toEqual({ type: 'bytes', base64: 'SGVsbG8=', contentType: 'a/b' });
  });

  it('checks a value against its type', () => {
    expect(typedValue({ id: 1, name: 'b', type: 'boolean', value: 'yes' })).toEqual({ error: 'true or false' });
    expect(typedValue({ id: 1, name: 'c', type: 'char', value: 'ab' })).toEqual({ error: 'one character' });
    expect(typedValue({ id: 1, name: 't', type: 'timestamp', value: '1000' })).toEqual({
      value: { type: 'timestamp', value: 1000 },
    });
  });
});
