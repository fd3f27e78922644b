// The alert lifecycle without a database: pending for the for-duration, firing once, resolving once, a pending
// alert dropped silently, a silenced alert changing state without delivering, a flapping subject reopening its
// alert; the email a notification becomes.
import { describe, expect, it } from 'vitest';
import type { SettingsReader } from '@/modules/kernel/plugin/index.ts';
import { alertLinkOf } from './alerting.settings.ts';
import { emailOf } from './channels.ts';
import { silenceEnded, stepOf, type OpenAlert } from './lifecycle.ts';

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

  it('reopens an alert that fires again within the flap window instead of opening a new one', () => {
    const window = { windowMs: 300_000, resolved: { resolvedAt: at(0), silencedUntil: null } };
    expect(stepOf(undefined, firing, 30_000, at(59), window)).toEqual({ kind: 'reopen', deliver: true });
    // Past the window it is a new alert, with its for-duration.
    const later = { ...window, resolved: { resolvedAt: new Date(at(0).getTime() - 300_000), silencedUntil: null } };
    expect(stepOf(undefined, firing, 30_000, at(0), later)).toEqual({ kind: 'open', state: 'pending', deliver: false });
    // A window of zero turns damping off; a silence still in force on the resolved alert keeps it quiet.
    expect(stepOf(undefined, firing, 0, at(1), { ...window, windowMs: 0 })).toEqual({
      kind: 'open',
      state: 'firing',
      deliver: true,
    });
    const silenced = { ...window, resolved: { resolvedAt: at(0), silencedUntil: at(120) } };
    expect(stepOf(undefined, firing, 0, at(5), silenced)).toEqual({ kind: 'reopen', deliver: false });
    expect(stepOf(undefined, calm, 0, at(5), window)).toEqual({ kind: 'none' });
  });

  it('tells when a silence has run out', () => {
    expect(silenceEnded({ silencedUntil: at(60) }, at(59))).toBe(false);
    expect(silenceEnded({ silencedUntil: at(60) }, at(60))).toBe(true);
    expect(silenceEnded({ silencedUntil: null }, at(60))).toBe(false);
  });
});

describe('an alert’s email', () => {
  it('names the rule, subject, value and cluster in the subject line and the body', () => {
    const { subject, text } = emailOf({
      event: 'firing',
      alert: {
        id: 'a1',
        rule: 'Orders backlog',
        severity: 'critical',
        clusterId: 'c1',
        cluster: 'prod-eu',
        subject: 'orders.in',
        state: 'firing',
        value: 120,
        since: '2026-11-26T12:00:00.000Z',
        labels: { team: 'payments' },
      },
    });
    expect(subject).toBe('[CRITICAL] Firing: Orders backlog — orders.in on prod-eu (value 120)');
    expect(text).toContain('Rule: Orders backlog\n');
    expect(text).toContain('Cluster: prod-eu (c1)\n');
    expect(text).toContain('Subject: orders.in\n');
    expect(text).toContain('Value: 120\n');
    expect(text).toContain('Labels: team=payments\n');
    expect(text).not.toContain('Open in Flotilla');
  });

  it('links the email to the alert in the console when the console address is set', () => {
    const { text } = emailOf({
      event: 'resolved',
      url: 'https://flotilla.example.com/alerts?open=a1',
      alert: {
        id: 'a1',
        rule: 'Orders backlog',
        severity: 'warning',
        clusterId: 'c1',
        subject: 'orders.in',
        state: 'resolved',
        value: 0,
        since: '2026-11-26T12:00:00.000Z',
        labels: {},
      },
    });
    expect(text).toContain('Open in Flotilla: https://flotilla.example.com/alerts?open=a1\n');
  });

  it('makes the console link from alerting.console-url, trailing slashes and all, and none without it', () => {
    const reader = (url: string) => ({ string: () => url }) as unknown as SettingsReader;
    expect(alertLinkOf(reader('https://flotilla.example.com/ops//'), 'a b')).toBe(
      'https://flotilla.example.com/ops/alerts?open=a%20b',
    );
    expect(alertLinkOf(reader(''), 'a1')).toBeUndefined();
    expect(alertLinkOf(undefined, 'a1')).toBeUndefined();
  });
});
