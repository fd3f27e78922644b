// The interrupted sweep on a real PostgreSQL (ADR 35): a PENDING row whose owner's lock is free — its process was
// killed, here by ending its backend as a kill -9 ends the socket — is finished as INTERRUPTED with what it reported;
// a live owner's row is left alone and finishes as its work says; a second sweep, or two at once, change nothing more.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockKeyText } from '@/base/advisory-lock.ts';
import { openDatabase, type Database } from '@/base/db/database.ts';
import { createTestDatabase, type TestDatabase } from '@test/database.ts';
import { eventually } from '@test/eventually.ts';
import type { RequestContext } from '@/modules/kernel/core/index.ts';
import { openAudit, ownAuditRowsAs } from './audit.service.ts';
import { INTERRUPTED_TEXT } from './interruption.ts';
import { sweepInterrupted } from './interrupted-sweep.ts';
import { holdProcessOwner, type ProcessOwner } from './process-owner.ts';

let database: TestDatabase;
let db: Database;
let live: ProcessOwner;

beforeAll(async () => {
  database = await createTestDatabase();
  db = openDatabase(database.url, { poolSize: 4, applicationName: 'audit-sweep-test' });
  live = await holdProcessOwner(database.url);
});

afterAll(async () => {
  await live.close();
  await db.close();
  await database.drop();
});

const request: RequestContext = { requestId: 'req-sweep', actor: { name: 'alice', userId: 'u-1' }, sourceIp: null };
const cluster = { id: '22222222-2222-4222-8222-222222222222', name: 'prod-west' };

/** A process that held its owner lock and then died: its backend ended, its session lock freed with it. */
async function killedOwner(): Promise<string> {
  const bootId = crypto.randomUUID();
  const client = new pg.Client({ connectionString: database.url });
  client.on('error', () => undefined);
  await client.connect();
  await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [lockKeyText('audit.owner', bootId)]);
  const [{ pid }] = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows as [{ pid: number }];
  await db.query('SELECT pg_terminate_backend($1)', [pid]);
  await client.end().catch(() => undefined);
  return bootId;
}

async function openAs(bootId: string, target: string) {
  ownAuditRowsAs(db.prisma, bootId);
  return openAudit(db.prisma, request, { action: 'message.move', target, cluster });
}

const rowOf = (id: string) => db.prisma.auditEvent.findUniqueOrThrow({ where: { id } });

/** The backend holding an owner's lock, if any (pg_locks splits the bigint key into classid and objid). */
async function holderOf(bootId: string): Promise<number | undefined> {
  const rows = await db.query<{ pid: number }>(
    `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 1 AND granted
        AND classid = ((hashtextextended($1, 0) >> 32) & 4294967295)::oid
        AND objid = (hashtextextended($1, 0) & 4294967295)::oid`,
    [lockKeyText('audit.owner', bootId)],
  );
  return rows[0]?.pid;
}

describe('sweepInterrupted', () => {
  it('finishes a dead owner’s PENDING row as INTERRUPTED and leaves a live owner’s row alone', async () => {
    const dead = await killedOwner();
    const orphan = await openAs(dead, 'orders');
    const nodes = [{ nodeId: 'n1', nodeName: 'west-1', outcome: 'APPLIED', estimate: 40, count: 40 }];
    await orphan.progress({ nodes });
    const running = await openAs(live.bootId, 'invoices');

    const swept = await sweepInterrupted(db.pool);

    expect(swept).toEqual([{ id: orphan.id, clusterId: cluster.id }]);
    const finished = await rowOf(orphan.id);
    expect(finished).toMatchObject({ outcome: 'INTERRUPTED', owner: dead, nodeDetail: { nodes } });
    expect(finished.error).toBe(`${INTERRUPTED_TEXT}: west-1 applied 40`);
    expect(finished.finishedAt).toBeInstanceOf(Date);
    expect(await rowOf(running.id)).toMatchObject({ outcome: 'PENDING', owner: live.bootId, finishedAt: null });

    await running.finish({ outcome: 'SUCCEEDED' });
    expect(await rowOf(running.id)).toMatchObject({ outcome: 'SUCCEEDED' });
  });

  it('does nothing the second time, nor twice when two sweeps run at once', async () => {
    const dead = await killedOwner();
    const orphan = await openAs(dead, 'payments');

    const [first, second] = await Promise.all([sweepInterrupted(db.pool), sweepInterrupted(db.pool)]);
    expect([...first, ...second].map((row) => row.id)).toEqual([orphan.id]);
    expect(await sweepInterrupted(db.pool)).toEqual([]);
    expect(await rowOf(orphan.id)).toMatchObject({ outcome: 'INTERRUPTED' });
  });

  it('leaves a row with no owner (written before owners were recorded) as it is', async () => {
    const id = crypto.randomUUID();
    await db.prisma.auditEvent.create({
      data: {
        id,
        actor: 'bob',
        requestId: 'req-old',
        action: 'queue.purge',
        outcome: 'PENDING',
        startedAt: new Date(),
      },
    });
    await sweepInterrupted(db.pool);
    expect(await rowOf(id)).toMatchObject({ outcome: 'PENDING', owner: null });
  });

  it('a live process whose lock connection broke takes its lock again, and its rows stay its own', async () => {
    const owner = await holdProcessOwner(database.url);
    try {
      const first = await holderOf(owner.bootId);
      expect(first).toEqual(expect.any(Number));
      await db.query('SELECT pg_terminate_backend($1)', [first]);
      const again = await eventually(
        'the lock taken again',
        async () => {
          const pid = await holderOf(owner.bootId);
          return pid !== undefined && pid !== first ? pid : undefined;
        },
        10_000,
        50,
      );
      expect(again).not.toBe(first);
      const running = await openAs(owner.bootId, 'refunds');
      expect(await sweepInterrupted(db.pool)).toEqual([]);
      expect(await rowOf(running.id)).toMatchObject({ outcome: 'PENDING' });
    } finally {
      await owner.close();
    }
  });
});
