// The alert lifecycle without a database: pending for the for-duration, firing once, resolving once, a pending
// alert dropped silently, a silenced alert changing state without delivering.
import { describe, expect, it } from 'vitest';
import { stepOf, type OpenAlert } from './lifecycle.ts';

const at = (seconds: number) => new Date(Date.UTC(2026, 10, 26, 12, 0, seconds));
const firing = { firing: true, value: 12 };
const calm = { firing: false, value: 0 };

describe('the alert lifecycle', () => {
  it('fires at once without a for-duration and delivers', () => {
    expect(stepOf(undefined, firing, 0, at(0))).toEqual({ kind: 'open', state: 'firing', deliver: true });
  });

  it('waits pending for the for-duration, then fires once', () => {
    expect(stepOf(undefined, firing, 30_000, at(0))).toEqual({ kind: 'open', state: 'pending', deliver: false });
    const pending: OpenAlert = { state: 'pending', since: at(0), silencedUntil: null };
    expect(stepOf(pending, firing, 30_000, at(29))).toEqual({ kind: 'update' });
    expect(stepOf(pending, firing, 30_000, at(30))).toEqual({ kind: 'fire', deliver: true });
    const fired: OpenAlert = { state: 'firing', since: at(0), silencedUntil: null };
    expect(stepOf(fired, firing, 30_000, at(45))).toEqual({ kind: 'update' });
  });

  it('drops a pending alert whose condition stopped holding, without a word', () => {
    const pending: OpenAlert = { state: 'pending', since: at(0), silencedUntil: null };
    expect(stepOf(pending, calm, 30_000, at(10))).toEqual({ kind: 'drop' });
    expect(stepOf(pending, undefined, 30_000, at(10))).toEqual({ kind: 'drop' });
  });

  it('resolves a firing alert when its condition stops holding or its subject is gone', () => {
    const fired: OpenAlert = { state: 'firing', since: at(0), silencedUntil: null };
    expect(stepOf(fired, calm, 0, at(10))).toEqual({ kind: 'resolve', deliver: true });
    expect(stepOf(fired, undefined, 0, at(10))).toEqual({ kind: 'resolve', deliver: true });
  });

  it('does nothing while nothing holds', () => {
    expect(stepOf(undefined, calm, 0, at(0))).toEqual({ kind: 'none' });
    expect(stepOf(undefined, undefined, 0, at(0))).toEqual({ kind: 'none' });
  });

  it('delivers nothing for a silenced alert until the silence ends', () => {
    const silenced: OpenAlert = { state: 'firing', since: at(0), silencedUntil: at(60) };
    expect(stepOf(silenced, calm, 0, at(10))).toEqual({ kind: 'resolve', deliver: false });
    expect(stepOf(silenced, calm, 0, at(61))).toEqual({ kind: 'resolve', deliver: true });
    const pending: OpenAlert = { state: 'pending', since: at(0), silencedUntil: at(60) };
    expect(stepOf(pending, firing, 5_000, at(10))).toEqual({ kind: 'fire', deliver: false });
  });
});
