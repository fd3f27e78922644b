// Reads an uploaded plugin zip without trusting it. A small reader of our own rather than a zip library: it has to see
// what libraries smooth over (the local header beside the central directory, the Unix mode in the external
// attributes, gaps and overlaps between entries, bytes after the end record) and it inflates with a hard output cap,
// so a bomb stops at the limit instead of after it. Anything malformed or ambiguous is refused: a legitimate plugin
// is packed by an ordinary zip writer and never needs zip64, multiple disks, encryption or odd entry types.
import { crc32, inflateRawSync, type ZlibOptions } from 'node:zlib';
import { isAllowedDirectory, isAllowedFile, unsafePathReason } from './entry-names.ts';
import type { Finding } from './finding.ts';
import type { PluginArchiveLimits } from './limits.ts';

const SIG_LOCAL = 0x04034b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_END = 0x06054b50;
const SIG_ZIP64_LOCATOR = 0x07064b50;
const SIG_DESCRIPTOR = 0x08074b50;
const END_SIZE = 22;
const CENTRAL_SIZE = 46;
const LOCAL_SIZE = 30;
const MAX_COMMENT = 0xffff;

const FLAG_ENCRYPTED = 0x0001;
const FLAG_DESCRIPTOR = 0x0008;
const FLAG_STRONG_ENCRYPTION = 0x0040;
const FLAG_UTF8 = 0x0800;
const METHOD_STORED = 0;
const METHOD_DEFLATED = 8;
const METHOD_AES = 99;
const EXTRA_ZIP64 = 0x0001;
const EXTRA_UNICODE_PATH = 0x7075;

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;
const HOSTS_WITH_UNIX_MODE = new Set([3, 19]); // Unix, OS X
const DOS_DIRECTORY = 0x10;
const DOS_REPARSE_POINT = 0x400;

interface CentralEntry {
  readonly name: string;
  readonly nameBytes: Uint8Array;
  readonly flags: number;
  readonly method: number;
  readonly crc: number;
  readonly compressedSize: number;
  readonly size: number;
  readonly localOffset: number;
}

export type ArchiveResult =
  { readonly ok: true; readonly files: Map<string, Uint8Array> } | { readonly ok: false; readonly findings: Finding[] };

interface InflateInfo {
  readonly buffer: Uint8Array;
  readonly engine: { readonly bytesWritten: number };
}

class Refusal extends Error {
  constructor(readonly finding: Finding) {
    super(finding.message);
  }
}

function refuse(code: string, message: string, entry?: string): never {
  throw new Refusal(entry === undefined ? { code, message } : { code, entry, message });
}

/** Reads every file of the archive, or says why it will not. Directories are checked and left out of `files`. */
export function readPluginArchive(bytes: Uint8Array, limits: PluginArchiveLimits): ArchiveResult {
  try {
    return { ok: true, files: read(bytes, limits) };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, findings: [error.finding] };
    throw error;
  }
}

function read(bytes: Uint8Array, limits: PluginArchiveLimits): Map<string, Uint8Array> {
  if (bytes.length > limits.maxArchiveBytes) {
    refuse(
      'archive-too-large',
      `The archive is ${bytes.length} bytes; plugins may be at most ${limits.maxArchiveBytes}.`,
    );
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = findEndRecord(bytes, view);
  const entries = readCentralDirectory(bytes, view, end, limits);
  checkLayout(bytes, view, entries, end.centralOffset);
  return inflateAll(bytes, view, entries, limits);
}

interface EndRecord {
  readonly offset: number;
  readonly count: number;
  readonly centralOffset: number;
  readonly centralSize: number;
}

function findEndRecord(bytes: Uint8Array, view: DataView): EndRecord {
  if (bytes.length < END_SIZE) refuse('archive-not-zip', 'The file is too short to be a zip archive.');
  const candidates: number[] = [];
  let sawSignature = false;
  const lowest = Math.max(0, bytes.length - END_SIZE - MAX_COMMENT);
  for (let at = bytes.length - END_SIZE; at >= lowest; at--) {
    if (view.getUint32(at, true) !== SIG_END) continue;
    sawSignature = true;
    // The end record's comment must reach exactly the last byte: anything after it is smuggled data.
    if (at + END_SIZE + view.getUint16(at + 20, true) === bytes.length) candidates.push(at);
  }
  // Two records that both fit (one hidden in the other's comment): readers that scan differently see two archives.
  if (candidates.length > 1) {
    refuse('archive-ambiguous', 'The archive has two end records; readers would disagree on what it holds.');
  }
  const [at] = candidates;
  if (at !== undefined) return checkEndRecord(view, at);
  if (sawSignature) {
    refuse('archive-trailing-data', 'The archive has data after its end record; repack it with an ordinary zip tool.');
  }
  return refuse('archive-not-zip', 'The file is not a zip archive (no end of central directory record).');
}

function checkEndRecord(view: DataView, at: number): EndRecord {
  const disk = view.getUint16(at + 4, true);
  const centralDisk = view.getUint16(at + 6, true);
  const onDisk = view.getUint16(at + 8, true);
  const count = view.getUint16(at + 10, true);
  const centralSize = view.getUint32(at + 12, true);
  const centralOffset = view.getUint32(at + 16, true);
  const zip64Locator = at >= 20 && view.getUint32(at - 20, true) === SIG_ZIP64_LOCATOR;
  if (zip64Locator || count === 0xffff || centralSize === 0xffffffff || centralOffset === 0xffffffff) {
    refuse('archive-zip64', 'The archive uses zip64 records, which a plugin of at most a few megabytes never needs.');
  }
  if (disk !== 0 || centralDisk !== 0 || onDisk !== count) {
    refuse('archive-multi-disk', 'The archive claims to span several disks; upload a single-part archive.');
  }
  if (centralOffset + centralSize !== at) {
    refuse('archive-malformed', 'The central directory is not where the archive’s end record says it is.');
  }
  return { offset: at, count, centralOffset, centralSize };
}

function readCentralDirectory(
  bytes: Uint8Array,
  view: DataView,
  end: EndRecord,
  limits: PluginArchiveLimits,
): CentralEntry[] {
  if (end.count > limits.maxEntries) {
    refuse(
      'archive-too-many-entries',
      `The archive has ${end.count} entries; plugins may have at most ${limits.maxEntries}.`,
    );
  }
  const entries: CentralEntry[] = [];
  const seen = new Set<string>();
  const seenFolded = new Map<string, string>();
  let at = end.centralOffset;
  for (let index = 0; index < end.count; index++) {
    if (at + CENTRAL_SIZE > end.offset || view.getUint32(at, true) !== SIG_CENTRAL) {
      refuse('archive-malformed', 'The central directory ends before the number of entries it announces.');
    }
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const next = at + CENTRAL_SIZE + nameLength + extraLength + commentLength;
    if (next > end.offset) refuse('archive-malformed', 'A central directory record runs past the directory’s end.');
    const nameBytes = bytes.subarray(at + CENTRAL_SIZE, at + CENTRAL_SIZE + nameLength);
    const flags = view.getUint16(at + 8, true);
    const name = decodeName(nameBytes, flags);
    const entry: CentralEntry = {
      name,
      nameBytes,
      flags,
      method: view.getUint16(at + 10, true),
      crc: view.getUint32(at + 16, true),
      compressedSize: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      localOffset: view.getUint32(at + 42, true),
    };
    checkExtraFields(view, at + CENTRAL_SIZE + nameLength, extraLength, name);
    if (view.getUint16(at + 34, true) !== 0) {
      refuse('archive-multi-disk', 'An entry claims to start on another disk of a multi-part archive.', name);
    }
    checkEntry(entry, view.getUint16(at + 4, true) >> 8, view.getUint32(at + 38, true), limits);
    if (seen.has(name)) refuse('entry-duplicate', `The archive holds "${name}" twice.`, name);
    const folded = name.normalize('NFC').toLowerCase();
    const twin = seenFolded.get(folded);
    if (twin !== undefined) {
      refuse(
        'entry-duplicate-case',
        `"${name}" and "${twin}" differ only in letter case, so they would be one file on some systems.`,
        name,
      );
    }
    seen.add(name);
    seenFolded.set(folded, name);
    entries.push(entry);
    at = next;
  }
  if (at !== end.offset) refuse('archive-malformed', 'The central directory holds more than the entries it announces.');
  return entries;
}

function decodeName(nameBytes: Uint8Array, flags: number): string {
  const ascii = nameBytes.every((byte) => byte < 0x80);
  // Without the UTF-8 flag a non-ASCII name is CP437 to some readers and UTF-8 to others: two names for one entry.
  if (!ascii && (flags & FLAG_UTF8) === 0) {
    refuse('entry-name-invalid', 'An entry has a non-ASCII name that is not marked as UTF-8.');
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(nameBytes);
  } catch {
    return refuse('entry-name-invalid', 'An entry’s name is not valid UTF-8.');
  }
}

function checkExtraFields(view: DataView, start: number, length: number, name: string): void {
  let at = start;
  while (at < start + length) {
    if (at + 4 > start + length) refuse('archive-malformed', 'An entry’s extra field is truncated.', name);
    const id = view.getUint16(at, true);
    const size = view.getUint16(at + 2, true);
    if (at + 4 + size > start + length) refuse('archive-malformed', 'An entry’s extra field is truncated.', name);
    if (id === EXTRA_ZIP64) {
      refuse('archive-zip64', 'An entry uses zip64 sizes, which a plugin never needs.', name);
    }
    // A second, "Unicode" name that some extractors prefer to the one checked here.
    if (id === EXTRA_UNICODE_PATH) {
      refuse('entry-name-ambiguous', 'An entry carries a second name in an extra field; repack without it.', name);
    }
    at += 4 + size;
  }
}

function checkEntry(entry: CentralEntry, host: number, external: number, limits: PluginArchiveLimits): void {
  const { name } = entry;
  const unsafe = unsafePathReason(name);
  if (unsafe !== undefined) refuse('entry-path-unsafe', `The entry "${printable(name)}" is refused: ${unsafe}.`, name);
  if ((entry.flags & (FLAG_ENCRYPTED | FLAG_STRONG_ENCRYPTION)) !== 0 || entry.method === METHOD_AES) {
    refuse('entry-encrypted', `"${name}" is encrypted; plugins must be packed without a password.`, name);
  }
  if (entry.method !== METHOD_STORED && entry.method !== METHOD_DEFLATED) {
    refuse(
      'entry-unsupported-compression',
      `"${name}" uses compression method ${entry.method}; only stored and deflated entries are read.`,
      name,
    );
  }
  const isDirectory = name.endsWith('/');
  const mode = HOSTS_WITH_UNIX_MODE.has(host) ? (external >>> 16) & S_IFMT : 0;
  if (mode === S_IFLNK) refuse('entry-symlink', `"${name}" is a symbolic link; plugins hold regular files only.`, name);
  const dosDirectory = (external & DOS_DIRECTORY) !== 0;
  if (
    (mode !== 0 && mode !== (isDirectory ? S_IFDIR : S_IFREG)) ||
    (!isDirectory && dosDirectory) ||
    (external & DOS_REPARSE_POINT) !== 0
  ) {
    refuse('entry-not-regular', `"${name}" is not a regular file (a device, pipe, link or mislabelled folder).`, name);
  }
  if (isDirectory) {
    if (!isAllowedDirectory(name)) {
      refuse(
        'entry-not-allowed',
        `The folder "${name}" is not part of the plugin format (only migrations/ and assets/).`,
        name,
      );
    }
    if (entry.size !== 0) refuse('archive-malformed', `The folder "${name}" has content.`, name);
    return;
  }
  if (!isAllowedFile(name)) {
    refuse(
      'entry-not-allowed',
      `"${name}" is not part of the plugin format (plugin.json, server.js, ui.js, migrations/NNN-name.sql, README.md, LICENSE, assets/*.png|svg|css).`,
      name,
    );
  }
  if (entry.method === METHOD_STORED && entry.compressedSize !== entry.size) {
    refuse('entry-size-mismatch', `"${name}" is stored uncompressed but declares two different sizes.`, name);
  }
  // The declared size is checked to refuse early; the inflated bytes are counted again below, trusting nothing.
  if (entry.size > limits.maxEntryBytes) {
    refuse(
      'entry-too-large',
      `"${name}" declares ${entry.size} bytes; an entry may have at most ${limits.maxEntryBytes}.`,
      name,
    );
  }
}

/**
 * Every byte between the start and the central directory must belong to exactly one entry: no prefix (a polyglot
 * file), no gap (hidden data), no two entries sharing bytes (the overlapping-entries bomb), and each local header
 * telling the same story as the central directory, since some extractors read one and some the other.
 */
function checkLayout(bytes: Uint8Array, view: DataView, entries: readonly CentralEntry[], centralOffset: number): void {
  const ordered = [...entries].sort((a, b) => a.localOffset - b.localOffset);
  let expected = 0;
  for (const entry of ordered) {
    const { name } = entry;
    if (entry.localOffset < expected) refuse('entry-overlap', `"${name}" shares its bytes with another entry.`, name);
    if (entry.localOffset > expected) {
      refuse(
        expected === 0 ? 'archive-leading-data' : 'archive-hidden-data',
        expected === 0
          ? 'The archive starts with data that belongs to no entry (is it a zip appended to another file?).'
          : `The archive holds bytes before "${name}" that belong to no entry.`,
        name,
      );
    }
    expected = checkLocalHeader(bytes, view, entry, centralOffset);
  }
  if (expected !== centralOffset) {
    refuse('archive-hidden-data', 'The archive holds bytes before its central directory that belong to no entry.');
  }
}

/** Compares an entry's local header with its central record and answers where the entry's bytes end. */
function checkLocalHeader(bytes: Uint8Array, view: DataView, entry: CentralEntry, limit: number): number {
  const { name, localOffset: at } = entry;
  if (at + LOCAL_SIZE > limit || view.getUint32(at, true) !== SIG_LOCAL) {
    refuse('archive-malformed', `"${name}" has no local header where the central directory points.`, name);
  }
  const nameLength = view.getUint16(at + 26, true);
  const extraLength = view.getUint16(at + 28, true);
  const dataStart = at + LOCAL_SIZE + nameLength + extraLength;
  if (dataStart > limit) refuse('archive-malformed', `"${name}"’s local header runs past its entry.`, name);
  const flags = view.getUint16(at + 6, true);
  const localName = bytes.subarray(at + LOCAL_SIZE, at + LOCAL_SIZE + nameLength);
  const sameName =
    localName.length === entry.nameBytes.length && localName.every((byte, i) => byte === entry.nameBytes[i]);
  const descriptor = (entry.flags & FLAG_DESCRIPTOR) !== 0;
  const local = {
    crc: view.getUint32(at + 14, true),
    compressed: view.getUint32(at + 18, true),
    size: view.getUint32(at + 22, true),
  };
  const sameSizes =
    descriptor || (local.crc === entry.crc && local.compressed === entry.compressedSize && local.size === entry.size);
  if (!sameName || flags !== entry.flags || view.getUint16(at + 8, true) !== entry.method || !sameSizes) {
    refuse(
      'entry-header-mismatch',
      `"${name}"’s local header disagrees with the central directory (name, flags, method or sizes), so extractors would disagree on its content.`,
      name,
    );
  }
  checkExtraFields(view, at + LOCAL_SIZE + nameLength, extraLength, name);
  const dataEnd = dataStart + entry.compressedSize;
  if (dataEnd > limit) refuse('archive-malformed', `"${name}"’s data runs into the central directory.`, name);
  if (!descriptor) return dataEnd;
  return checkDescriptor(view, entry, dataEnd, limit);
}

function checkDescriptor(view: DataView, entry: CentralEntry, at: number, limit: number): number {
  const signed = at + 4 <= limit && view.getUint32(at, true) === SIG_DESCRIPTOR;
  const start = signed ? at + 4 : at;
  if (start + 12 > limit) refuse('archive-malformed', `"${entry.name}"’s data descriptor is missing.`, entry.name);
  if (
    view.getUint32(start, true) !== entry.crc ||
    view.getUint32(start + 4, true) !== entry.compressedSize ||
    view.getUint32(start + 8, true) !== entry.size
  ) {
    refuse(
      'entry-header-mismatch',
      `"${entry.name}"’s data descriptor disagrees with the central directory.`,
      entry.name,
    );
  }
  return start + 12;
}

function inflateAll(
  bytes: Uint8Array,
  view: DataView,
  entries: readonly CentralEntry[],
  limits: PluginArchiveLimits,
): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  let total = 0;
  for (const entry of entries) {
    if (entry.name.endsWith('/')) continue;
    const at = entry.localOffset;
    const dataStart = at + LOCAL_SIZE + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
    const data = bytes.subarray(dataStart, dataStart + entry.compressedSize);
    const content = inflateEntry(entry, data, limits, limits.maxTotalUncompressedBytes - total);
    total += content.length;
    files.set(entry.name, content);
  }
  return files;
}

/** Inflates one entry, stopping as soon as the output passes the tightest of the three caps. */
function inflateEntry(
  entry: CentralEntry,
  data: Uint8Array,
  limits: PluginArchiveLimits,
  totalLeft: number,
): Uint8Array {
  const { name } = entry;
  const ratioCap = Math.max(limits.ratioExemptBytes, entry.compressedSize * limits.maxCompressionRatio);
  const cap = Math.min(limits.maxEntryBytes, totalLeft, ratioCap);
  const overCap = (): never => {
    if (cap === ratioCap) {
      refuse(
        'entry-compression-ratio',
        `"${name}" inflates to more than ${limits.maxCompressionRatio} times its compressed size: a decompression bomb.`,
        name,
      );
    }
    if (cap === limits.maxEntryBytes) {
      refuse(
        'entry-too-large',
        `"${name}" inflates to more than ${limits.maxEntryBytes} bytes, the limit per entry.`,
        name,
      );
    }
    return refuse(
      'archive-too-large-uncompressed',
      `The archive inflates to more than ${limits.maxTotalUncompressedBytes} bytes in all, the limit per plugin.`,
      name,
    );
  };
  let content: Uint8Array;
  if (entry.method === METHOD_STORED) {
    if (data.length > cap) overCap();
    content = data;
  } else {
    let consumed: number;
    try {
      // `info` (documented, untyped in @types/node) also answers how many input bytes the stream used.
      const options = { maxOutputLength: Math.max(1, cap), info: true } as ZlibOptions;
      const inflated = inflateRawSync(data, options) as unknown as InflateInfo;
      content = inflated.buffer;
      consumed = inflated.engine.bytesWritten;
    } catch (error) {
      if (error instanceof RangeError) overCap();
      return refuse('entry-corrupt', `"${name}" could not be inflated: its compressed data is damaged.`, name);
    }
    if (content.length > cap) overCap();
    if (consumed !== data.length) {
      refuse('entry-corrupt', `"${name}" has bytes after the end of its compressed data.`, name);
    }
  }
  if (content.length !== entry.size) {
    refuse('entry-size-mismatch', `"${name}" inflates to ${content.length} bytes but declares ${entry.size}.`, name);
  }
  if (crc32(content) >>> 0 !== entry.crc) {
    refuse('entry-crc-mismatch', `"${name}" does not match its checksum: the archive is damaged or was altered.`, name);
  }
  return content;
}

function printable(name: string): string {
  return name.replace(/\p{Cc}/gu, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
