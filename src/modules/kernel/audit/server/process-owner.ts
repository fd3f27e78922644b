// Which process runs a PENDING audit row's work (ADR 35): each process takes a boot id at start and holds the
// 'audit.owner' session advisory lock of it, on a connection of its own, for its lifetime. PostgreSQL frees a session
// lock when its session ends, so a process that dies — kill -9 included — frees it at once, and the interrupted sweep
// can tell its rows from a live process's without a heartbeat or a timeout.
import { randomUUID } from 'node:crypto';
import { SessionLocks } from '@/base/advisory-lock.ts';
import { reconnectDelay } from '@/base/backoff.ts';
import { logger } from '@/base/log/log.ts';

const log = logger('audit');

const RETRY = { initialDelayMs: 500, maxDelayMs: 10_000 };

export interface ProcessOwner {
  readonly bootId: string;
  close(): Promise<void>;
}

export async function holdProcessOwner(connectionString: string): Promise<ProcessOwner> {
  const bootId = randomUUID();
  let closed = false;
  let attempt = 0;
  let timer: NodeJS.Timeout | undefined;
  // A broken lock connection frees the lock while this process lives: it is taken again as soon as the database
  // answers (a sweep in between may have called a live row INTERRUPTED; its `finish` then writes the real outcome).
  const retake = (): void => {
    if (closed) return;
    timer = setTimeout(() => void take(), reconnectDelay(RETRY, attempt++));
    timer.unref();
  };
  const take = async (): Promise<void> => {
    if (closed) return;
    try {
      if (!(await locks.tryAcquire(bootId))) throw new Error('another session holds it');
      attempt = 0;
      log.info({ bootId }, 'the audit owner lock is held again');
    } catch (error) {
      log.warn({ err: error, bootId }, 'cannot take the audit owner lock again yet');
      retake();
    }
  };
  const locks: SessionLocks = new SessionLocks(connectionString, 'audit.owner', retake);
  if (!(await locks.tryAcquire(bootId))) throw new Error(`the audit owner lock of boot id ${bootId} is taken`);
  return {
    bootId,
    async close() {
      closed = true;
      clearTimeout(timer);
      await locks.close();
    },
  };
}
