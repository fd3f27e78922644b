import { describe, expect, it } from 'vitest';
import { DETECTOR_IDS, cardNumberValid, detect, ibanValid, type DetectorId } from './detectors.ts';

const ALL = new Set<DetectorId>(DETECTOR_IDS);
const found = (text: string) => detect(text, ALL).map((hit) => [hit.detector, text.slice(hit.start, hit.end)]);

const VALID_CARDS = [
  '4111111111111111', // Visa
  '4012888888881881',
  '5555555555554444', // Mastercard
  '2223003122003222', // Mastercard 2-series
  '378282246310005', // Amex
  '6011111111111117', // Discover
  '3530111333300000', // JCB
  '30569309025904', // Diners
  '6200000000000005', // UnionPay
  '4111 1111 1111 1111',
  '5555-5555-5555-4444',
];

const VALID_IBANS = [
  'DE89370400440532013000',
  'GB29NWBK60161331926819',
  'FR1420041010050500013M02606',
  'ES9121000418450200051332',
  'IT60X0542811101000000123456',
  'NL91ABNA0417164300',
  'BE68539007547034',
  'CH9300762011623852957',
  'AT611904300234573201',
  'PL61109010140000071219812874',
  'SE4550000000058398257466',
  'NO9386011117947',
  'DK5000400440116243',
  'FI2112345600000785',
  'PT50000201231234567890154',
  'IE29AIBK93115212345678',
  'DE89 3704 0044 0532 0130 00',
];

const ORDINARY = [
  '3f2b9c1e-8a7d-4e2f-9b1c-2d3e4f5a6b7c',
  '2026-11-25T12:34:56.789Z',
  '1764074096000',
  '1764074096000123',
  'ID:broker-1-1764074096000-1:1:1:1:1',
  'ORD-000123456789',
  '1234567890123456',
  'order 42 shipped 2026-11-25 12:34',
  'version 2.44.0+build.7',
  'tracking 9400111899223856931234',
  'amount 4111.11 EUR',
];

describe('detectors', () => {
  it.each(VALID_CARDS)('finds the card number %s', (card) => {
    expect(found(`paid with ${card} today`)).toEqual([['card', card]]);
  });

  it('refuses card-shaped numbers that fail Luhn or name no issuer', () => {
    expect(cardNumberValid('4111111111111112')).toBe(false);
    expect(cardNumberValid('1764074096000')).toBe(false);
    expect(cardNumberValid('9999999999999995')).toBe(false);
  });

  it.each(VALID_IBANS)('finds the IBAN %s', (iban) => {
    expect(found(`pay to ${iban}, thanks`)).toEqual([['iban', iban]]);
  });

  it.each([
    'de89370400440532013000',
    'gb29nwbk60161331926819',
    'Fr1420041010050500013m02606',
    'de89 3704 0044 0532 0130 00',
  ])('finds the IBAN %s in lower or mixed case', (iban) => {
    expect(found(`pay to ${iban}, thanks`)).toEqual([['iban', iban]]);
  });

  it.each([
    ['orders.4111111111111111', 'card', '4111111111111111'],
    ['orders-4111111111111111', 'card', '4111111111111111'],
    ['orders_4111111111111111.dlq', 'card', '4111111111111111'],
    ["pan = '4111111111111111' AND region = 'eu'", 'card', '4111111111111111'],
    ['ref 12 4111 1111 1111 1111', 'card', '4111 1111 1111 1111'],
    ['iban_de89370400440532013000', 'iban', 'de89370400440532013000'],
    ['payouts.GB29NWBK60161331926819.retry', 'iban', 'GB29NWBK60161331926819'],
  ])('finds what a name or a filter holds: %s', (text, detector, value) => {
    expect(found(text)).toEqual([[detector, value]]);
  });

  it('refuses IBANs with a wrong check digit or length', () => {
    expect(ibanValid('DE89370400440532013001')).toBe(false);
    expect(ibanValid('DE8937040044053201300')).toBe(false);
    expect(ibanValid('XX89370400440532013000')).toBe(false);
  });

  it('finds emails, international phones, bearer tokens, JWTs and private keys', () => {
    const jwt =
      'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';
    expect(found('write to jane.doe+orders@example.co.uk')).toEqual([['email', 'jane.doe+orders@example.co.uk']]);
    expect(found('call +44 20 7946 0958 or +1 (415) 555-2671 or +33612345678')).toEqual([
      ['phone', '+44 20 7946 0958'],
      ['phone', '+1 (415) 555-2671'],
      ['phone', '+33612345678'],
    ]);
    expect(found('Authorization: Bearer abc.DEF-123_xyz~')).toEqual([['bearer', 'Bearer abc.DEF-123_xyz~']]);
    expect(found(`token=${jwt}`)).toEqual([['jwt', jwt]]);
    const key = '-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----';
    expect(found(`key:\n${key}\n`)).toEqual([['private-key', key]]);
  });

  it.each(ORDINARY)('finds nothing in the ordinary value %s', (value) => {
    expect(found(value)).toEqual([]);
  });

  it('runs only the enabled detectors', () => {
    expect(
      detect('4111111111111111 jane@example.com', new Set<DetectorId>(['email'])).map((hit) => hit.detector),
    ).toEqual(['email']);
  });
});
