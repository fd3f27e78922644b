import { describe, expect, it } from 'vitest';
import { kindOfHttpStatus, kindOfJolokiaError, kindOfNetworkError, ManagementError } from './management-error.ts';
import { findTruncatedFields } from './management-browse.ts';

describe('management error classification', () => {
  it('maps socket and TLS failures', () => {
    expect(kindOfNetworkError(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toBe('unreachable');
    expect(kindOfNetworkError(Object.assign(new Error('x'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }))).toBe('tls');
    expect(kindOfNetworkError(Object.assign(new Error('x'), { code: 'ERR_TLS_CERT_ALTNAME_INVALID' }))).toBe('tls');
  });

  it('maps Hawtio HTTP answers and Jolokia body statuses as Artemis 2.44 sends them', () => {
    expect(kindOfHttpStatus(403)).toBe('auth-failed');
    expect(kindOfHttpStatus(429)).toBe('auth-failed');
    expect(kindOfHttpStatus(404)).toBe('unreachable'); // no Jolokia at that path: not a broker's own 404
    expect(kindOfJolokiaError(403, 'java.lang.Exception', 'Origin null is not allowed to call this agent')).toBe(
      'forbidden',
    );
    expect(kindOfJolokiaError(403, 'java.lang.Exception', 'User not authorized to access operation: x')).toBe(
      'forbidden',
    );
    expect(kindOfJolokiaError(400, 'java.lang.IllegalArgumentException', 'No operation frob found on MBean x')).toBe(
      'not-found',
    );
    expect(kindOfJolokiaError(404, 'javax.management.InstanceNotFoundException', 'x')).toBe('not-found');
    expect(kindOfJolokiaError(500, 'ActiveMQNonExistentQueueException', 'AMQ229017')).toBe('broker-error');
  });

  it('picks the snippet that fixes the cause', () => {
    expect(new ManagementError('forbidden', 'Origin null is not allowed', 'u').configSnippet).toContain(
      'jolokia-access.xml',
    );
    expect(new ManagementError('forbidden', 'User not authorized', 'u').configSnippet).toContain('management.xml');
  });

  it('finds the broker truncation suffix in text and typed properties only', () => {
    const fields = findTruncatedFields({
      text: 'abc, + 744 more',
      PropertiesText: '{a=b}',
      StringProperties: { 'applicationProperties.vin': 'WVW, + 12 more', other: 'fine' },
    });
    expect(fields).toEqual(['text', 'StringProperties.applicationProperties.vin']);
  });
});
