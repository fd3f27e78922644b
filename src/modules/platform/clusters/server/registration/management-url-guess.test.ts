import { describe, expect, it } from 'vitest';
import { amqpUrlOf, connectorOfUrl, guessManagementUrl, parseConnector } from './management-url-guess.ts';

const seed = { managementUrl: 'http://10.0.0.1:8161/console/jolokia', connector: { host: '10.0.0.1', port: 61616 } };

describe('management URL guess', () => {
  it('keeps scheme, port and path on another host', () => {
    expect(guessManagementUrl(seed, { host: 'broker-b.example', port: 61616 })).toBe(
      'http://broker-b.example:8161/console/jolokia',
    );
  });

  it('shifts the port by the connector offset on the seed host (artemis create --port-offset)', () => {
    expect(guessManagementUrl(seed, { host: '10.0.0.1', port: 61716 })).toBe('http://10.0.0.1:8261/console/jolokia');
  });

  it('reads connectors and AMQP URLs', () => {
    expect(parseConnector('127.0.0.1:61617')).toEqual({ host: '127.0.0.1', port: 61617 });
    expect(parseConnector('[::1]:61617')).toEqual({ host: '::1', port: 61617 });
    expect(parseConnector('nonsense')).toBeUndefined();
    expect(connectorOfUrl('amqp://h:5000')).toEqual({ host: 'h', port: 5000 });
    expect(amqpUrlOf({ host: 'h', port: 1 }, 'amqps://x:2')).toBe('amqps://h:1');
  });
});
