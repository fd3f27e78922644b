// The plugins' rows: one per plugin (its state) and one per uploaded version (the archive as uploaded, with its
// manifest). Only this module reads or writes them; the lifecycle moves a plugin through lifecycle/states.ts.
import { createHash } from 'node:crypto';
import type { PrismaClient, Transaction } from '@/base/db/database.ts';
import type { PluginPosition, PluginState } from '../lifecycle/states.ts';

export interface PluginRow extends PluginPosition {
  readonly id: string;
  readonly lastError: string | null;
  readonly updatedBy: string;
  readonly updatedAt: Date;
}

export interface ArchiveRow {
  readonly pluginId: string;
  readonly version: string;
  readonly sha256: string;
  readonly manifest: unknown;
  readonly uploadedBy: string;
  readonly uploadedAt: Date;
  readonly size: number;
}

type Db = PrismaClient | Transaction;

const asRow = (row: {
  id: string;
  state: string;
  version: string;
  previousVersion: string | null;
  lastError: string | null;
  updatedBy: string;
  updatedAt: Date;
}): PluginRow => ({
  id: row.id,
  state: row.state as PluginState,
  version: row.version,
  previousVersion: row.previousVersion,
  lastError: row.lastError,
  updatedBy: row.updatedBy,
  updatedAt: row.updatedAt,
});

export async function listPlugins(db: Db): Promise<PluginRow[]> {
  return (await db.plugin.findMany({ orderBy: { id: 'asc' } })).map(asRow);
}

export async function readPlugin(db: Db, id: string): Promise<PluginRow | undefined> {
  const row = await db.plugin.findUnique({ where: { id } });
  return row ? asRow(row) : undefined;
}

export async function listArchives(db: Db, pluginId?: string): Promise<ArchiveRow[]> {
  // The bytes stay in the database: a list needs their size, not their content.
  const rows = await db.$queryRaw<(Omit<ArchiveRow, 'size'> & { size: number })[]>`
    SELECT plugin_id AS "pluginId", version, sha256, manifest, uploaded_by AS "uploadedBy",
           uploaded_at AS "uploadedAt", octet_length(archive)::int AS size
      FROM plugin_archive
     WHERE ${pluginId ?? null}::text IS NULL OR plugin_id = ${pluginId ?? null}
     ORDER BY plugin_id, uploaded_at DESC`;
  return rows;
}

export async function readArchiveBytes(db: Db, pluginId: string, version: string): Promise<Uint8Array | undefined> {
  const row = await db.pluginArchive.findUnique({
    where: { pluginId_version: { pluginId, version } },
    select: { archive: true },
  });
  return row ? new Uint8Array(row.archive) : undefined;
}

export const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Stores an uploaded version; a plugin seen for the first time starts UPLOADED at it. */
export async function storeArchive(
  tx: Transaction,
  upload: { pluginId: string; version: string; bytes: Uint8Array; manifest: unknown; actor: string },
): Promise<void> {
  const now = new Date();
  await tx.pluginArchive.create({
    data: {
      pluginId: upload.pluginId,
      version: upload.version,
      archive: Buffer.from(upload.bytes),
      sha256: sha256Of(upload.bytes),
      manifest: upload.manifest as object,
      uploadedBy: upload.actor,
      uploadedAt: now,
    },
  });
  await tx.plugin.upsert({
    where: { id: upload.pluginId },
    create: {
      id: upload.pluginId,
      state: 'UPLOADED',
      version: upload.version,
      updatedBy: upload.actor,
      updatedAt: now,
    },
    update: {},
  });
}

export async function movePlugin(
  db: Db,
  id: string,
  change: {
    state: PluginState;
    version?: string;
    previousVersion?: string | null;
    lastError?: string | null;
    actor: string;
  },
): Promise<void> {
  await db.plugin.update({
    where: { id },
    data: {
      state: change.state,
      ...(change.version === undefined ? {} : { version: change.version }),
      ...(change.previousVersion === undefined ? {} : { previousVersion: change.previousVersion }),
      lastError: change.lastError ?? null,
      updatedBy: change.actor,
      updatedAt: new Date(),
    },
  });
}

/** Purge: the plugin and every archive of it. Its schema is dropped by the caller (host/plugin-schema.ts). */
export async function forgetPlugin(tx: Transaction, id: string): Promise<void> {
  await tx.pluginArchive.deleteMany({ where: { pluginId: id } });
  await tx.plugin.delete({ where: { id } });
}
