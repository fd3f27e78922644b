import { describe, expect, it } from 'vitest';
import { amqpUrlOf, connectorOfUrl, managementUrlCandidates, parseConnector } from './management-url-guess.ts';

const seed = { managementUrl: 'http://10.0.0.1:8161/console/jolokia', connector: { host: '10.0.0.1', port: 61616 } };

describe('management URL candidates', () => {
  it('tries the seed port on another host first (one broker per host), then the seed offset', () => {
    expect(managementUrlCandidates(seed, { host: 'broker-b.example', port: 61617 })).toEqual([
      { url: 'http://broker-b.example:8161/console/jolokia', method: 'seed-port' },
      { url: 'http://broker-b.example:8162/console/jolokia', method: 'seed-offset' },
    ]);
  });

  it('tries each URL once when the offset is zero', () => {
    expect(managementUrlCandidates(seed, { host: 'broker-b.example', port: 61616 })).toEqual([
      { url: 'http://broker-b.example:8161/console/jolokia', method: 'seed-port' },
    ]);
  });

  it('shifts the port by the connector offset on the seed host (artemis create --port-offset)', () => {
    expect(managementUrlCandidates(seed, { host: '10.0.0.1', port: 61716 })).toEqual([
      { url: 'http://10.0.0.1:8261/console/jolokia', method: 'seed-offset' },
    ]);
  });

  it('offers nothing when the offset leaves the port range', () => {
    expect(managementUrlCandidates(seed, { host: '10.0.0.1', port: 1 })).toEqual([]);
  });

  it('reads connectors and AMQP URLs', () => {
    expect(parseConnector('127.0.0.1:61617')).toEqual({ host: '127.0.0.1', port: 61617 });
    expect(parseConnector('[::1]:61617')).toEqual({ host: '::1', port: 61617 });
    expect(parseConnector('nonsense')).toBeUndefined();
    expect(connectorOfUrl('amqp://h:5000')).toEqual({ host: 'h', port: 5000 });
    expect(amqpUrlOf({ host: 'h', port: 1 }, 'amqps://x:2')).toBe('amqps://h:1');
  });
});
