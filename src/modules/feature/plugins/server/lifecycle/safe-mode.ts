// Safe mode (spec: Limits, "safe mode: three unclean boots"). Each web process notes its boot on its instance's row
// and a clean stop clears the mark; a boot that finds the mark still set follows an unclean end (a crash, a kill, a
// plugin that took the process down). Three in a row and the instance starts with every plugin off and says why,
// until an installer leaves safe mode. A clean stop after a healthy run counts the row back to zero.
import type { PrismaClient } from '@/base/db/database.ts';

const UNCLEAN_BOOTS_FOR_SAFE_MODE = 3;

export interface BootRecord {
  readonly uncleanBoots: number;
  readonly safeMode: boolean;
  readonly safeModeSince: Date | null;
  /** Why, in a sentence, when in safe mode. */
  readonly reason: string | null;
}

const reasonFor = (count: number) =>
  `The last ${String(count)} starts of this instance did not end cleanly, so it started with every plugin off (safe mode). Find the cause in the plugins' last errors, then leave safe mode in Admin → Plugins.`;

function asRecord(row: { uncleanBoots: number; safeMode: boolean; safeModeSince: Date | null }): BootRecord {
  return { ...row, reason: row.safeMode ? reasonFor(Math.max(row.uncleanBoots, UNCLEAN_BOOTS_FOR_SAFE_MODE)) : null };
}

/** Notes a boot: counts it unclean when the previous one never stopped cleanly, and trips safe mode at three. */
export async function recordBoot(prisma: PrismaClient, instanceId: string, now = new Date()): Promise<BootRecord> {
  const row = await prisma.$transaction(async (tx) => {
    const [previous] = await tx.$queryRaw<{ running: boolean; unclean_boots: number; safe_mode: boolean }[]>`
      SELECT running, unclean_boots, safe_mode FROM plugin_boot WHERE instance_id = ${instanceId} FOR UPDATE`;
    const uncleanBoots = previous?.running ? previous.unclean_boots + 1 : (previous?.unclean_boots ?? 0);
    const trips = !previous?.safe_mode && uncleanBoots >= UNCLEAN_BOOTS_FOR_SAFE_MODE;
    return tx.pluginBoot.upsert({
      where: { instanceId },
      create: {
        instanceId,
        uncleanBoots,
        running: true,
        safeMode: trips,
        safeModeSince: trips ? now : null,
        updatedAt: now,
      },
      update: {
        uncleanBoots,
        running: true,
        ...(trips ? { safeMode: true, safeModeSince: now } : {}),
        updatedAt: now,
      },
    });
  });
  return asRecord(row);
}

/** A clean stop: the boot is no longer unclean, and the count starts again. */
export async function recordCleanStop(prisma: PrismaClient, instanceId: string): Promise<void> {
  await prisma.pluginBoot.updateMany({
    where: { instanceId },
    data: { running: false, uncleanBoots: 0, updatedAt: new Date() },
  });
}

export async function readBoot(prisma: PrismaClient, instanceId: string): Promise<BootRecord> {
  const row = await prisma.pluginBoot.findUnique({ where: { instanceId } });
  return row ? asRecord(row) : { uncleanBoots: 0, safeMode: false, safeModeSince: null, reason: null };
}

/** An installer leaves safe mode, on every instance in it: plugins start again (each instance reconciles). */
export async function leaveSafeMode(prisma: PrismaClient): Promise<number> {
  const { count } = await prisma.pluginBoot.updateMany({
    where: { safeMode: true },
    data: { safeMode: false, safeModeSince: null, uncleanBoots: 0, updatedAt: new Date() },
  });
  return count;
}
