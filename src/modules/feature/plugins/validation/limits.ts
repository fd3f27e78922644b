// The archive limits in one place, so the lead's docs and the admin's error messages quote the same numbers.
// An archive larger than any of these is refused before, or while, it is read; nothing is trusted from its headers.

const MIB = 1024 * 1024;

export const PLUGIN_ARCHIVE_LIMITS = {
  /** The uploaded zip itself. */
  maxArchiveBytes: 5 * MIB,
  /** All entries together, counted as they are inflated. */
  maxTotalUncompressedBytes: 20 * MIB,
  /** Any one entry, counted as it is inflated. */
  maxEntryBytes: 10 * MIB,
  /** Entries in the central directory, directories included. */
  maxEntries: 200,
  /** Inflated size over compressed size, per entry. */
  maxCompressionRatio: 100,
  /** Entries that inflate to no more than this are exempt from the ratio: too small to be a bomb (a 4 KiB run of spaces). */
  ratioExemptBytes: 64 * 1024,
  /** All migrations together: the SQL parser is thorough, not fast (about 1 s per 128 KiB of DDL). */
  maxMigrationBytes: 256 * 1024,
  /** Resource limits a manifest may ask for. */
  memoryMb: { min: 64, max: 256 },
  maxCpuMsPerMinute: 30_000,
} as const;

export type PluginArchiveLimits = typeof PLUGIN_ARCHIVE_LIMITS;
