import { describe, expect, it } from 'vitest';
import { addressFromUrl, rheaConnectOptions } from './native-endpoint.ts';

describe('addressFromUrl', () => {
  it('reads host and port of plain and TLS URLs', () => {
    expect(addressFromUrl('amqp://127.0.0.1:61616')).toEqual({ host: '127.0.0.1', port: 61616, isTls: false });
    expect(addressFromUrl('amqps://broker.example:61617')).toEqual({
      host: 'broker.example',
      port: 61617,
      isTls: true,
    });
    expect(addressFromUrl('amqp://[::1]')).toEqual({ host: '::1', port: 5672, isTls: false });
  });

  it('refuses other schemes', () => {
    expect(() => addressFromUrl('http://127.0.0.1:8161')).toThrow(/Not an AMQP URL/);
  });
});

describe('rheaConnectOptions', () => {
  const endpoint = { nodeKey: 'n1', clusterKey: 'c1', host: '127.0.0.1', port: 61616, username: 'u', password: 'p' };

  it('turns rhea reconnect off and keeps the configured host', () => {
    const options = rheaConnectOptions(endpoint, 'flotilla-x');
    expect(options).toMatchObject({ host: '127.0.0.1', port: 61616, reconnect: false, transport: 'tcp' });
  });

  it('passes CA, client certificate and server name for TLS', () => {
    const options = rheaConnectOptions(
      { ...endpoint, tls: { ca: 'CA', cert: 'CERT', key: 'KEY', servername: 'broker.example' } },
      'flotilla-x',
    );
    expect(options).toMatchObject({
      transport: 'tls',
      ca: 'CA',
      cert: 'CERT',
      key: 'KEY',
      servername: 'broker.example',
      rejectUnauthorized: true,
      reconnect: false,
    });
  });
});

describe('rheaConnectOptions server name', () => {
  it('sends SNI for host names only', () => {
    const base = { nodeKey: 'n', clusterKey: 'c', port: 61617, tls: { ca: 'CA' } };
    expect(rheaConnectOptions({ ...base, host: '127.0.0.1' }, 'x')).toMatchObject({ servername: '' });
    expect(rheaConnectOptions({ ...base, host: 'broker.example' }, 'x')).toMatchObject({
      servername: 'broker.example',
    });
  });
});
