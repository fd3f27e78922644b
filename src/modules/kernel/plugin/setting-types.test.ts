import { describe, expect, it } from 'vitest';
import { booleanSetting, durationSetting, integerSetting, parseDuration, stringSetting } from './setting-types.ts';

describe('setting types', () => {
  it('parses durations with units', () => {
    expect(parseDuration('250ms')).toBe(250);
    expect(parseDuration('5s')).toBe(5_000);
    expect(parseDuration('5m')).toBe(300_000);
    expect(parseDuration('72h')).toBe(259_200_000);
    expect(parseDuration('2d')).toBe(172_800_000);
    expect(parseDuration('5')).toBeUndefined();
    expect(parseDuration('5 minutes')).toBeUndefined();
    expect(parseDuration(5)).toBeUndefined();
  });

  it('checks duration bounds and says the rule in words', () => {
    const setting = durationSetting({ key: 'x.interval', description: '', defaultValue: '15s', min: '1s', max: '1h' });
    expect(setting.isValid('1s')).toBe(true);
    expect(setting.isValid('61m')).toBe(false);
    expect(setting.isValid('999ms')).toBe(false);
    expect(setting.rule).toContain('from 1s to 1h');
  });

  it('refuses a declaration whose default is no duration', () => {
    expect(() => durationSetting({ key: 'x', description: '', defaultValue: 'soon', min: '1s', max: '1h' })).toThrow();
  });

  it('checks integers, booleans and strings', () => {
    const cap = integerSetting({ key: 'safety.bulk-cap', description: '', defaultValue: 1000, min: 1, max: 1_000_000 });
    expect(cap.isValid(1000)).toBe(true);
    expect(cap.isValid(10.5)).toBe(false);
    expect(cap.isValid('1000')).toBe(false);
    expect(booleanSetting({ key: 'b', description: '', defaultValue: true }).isValid('true')).toBe(false);
    const name = stringSetting({
      key: 's',
      description: '',
      defaultValue: 'a',
      pattern: /^[a-z]+$/,
      patternInWords: 'lower-case letters',
    });
    expect(name.isValid('abc')).toBe(true);
    expect(name.isValid('ABC')).toBe(false);
    expect(name.rule).toBe('lower-case letters');
  });
});
