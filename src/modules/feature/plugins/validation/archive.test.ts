// Archive limits counted on inflated bytes, never on what the headers declare: run with small limits so each one
// can be crossed by a few kilobytes.
import { describe, expect, it } from 'vitest';
import { readPluginArchive } from './archive.ts';
import { buildZip } from './fixtures/zip-writer.ts';
import { PLUGIN_ARCHIVE_LIMITS } from './limits.ts';

const small = {
  ...PLUGIN_ARCHIVE_LIMITS,
  maxEntryBytes: 4000,
  maxTotalUncompressedBytes: 6000,
  ratioExemptBytes: 1000,
};
/** Text that compresses about threefold: far from any ratio limit. */
const text = (length: number): string =>
  Array.from({ length }, (_, i) => String.fromCharCode(97 + ((i * 7919) % 26))).join('');
const codeOf = (result: ReturnType<typeof readPluginArchive>): string | undefined =>
  result.ok ? undefined : result.findings[0]?.code;

describe('readPluginArchive', () => {
  it('reads files and leaves folders out', () => {
    const result = readPluginArchive(
      buildZip({
        entries: [
          { name: 'assets/', method: 'store' },
          { name: 'assets/a.css', content: 'a{}' },
        ],
      }),
      small,
    );
    expect(result.ok && [...result.files.keys()]).toEqual(['assets/a.css']);
  });

  it('counts the inflated bytes of an entry whose header understates its size', () => {
    const zip = buildZip({ entries: [{ name: 'README.md', content: text(5000), declared: { size: 10 } }] });
    expect(codeOf(readPluginArchive(zip, small))).toBe('entry-too-large');
  });

  it('stops at the total once the entries together pass it', () => {
    const zip = buildZip({
      entries: [
        { name: 'README.md', content: text(3500) },
        { name: 'LICENSE', content: text(3500) },
      ],
    });
    expect(codeOf(readPluginArchive(zip, small))).toBe('archive-too-large-uncompressed');
  });

  it('exempts small entries from the ratio and catches large ones', () => {
    expect(readPluginArchive(buildZip({ entries: [{ name: 'README.md', content: ' '.repeat(900) }] }), small).ok).toBe(
      true,
    );
    const bomb = buildZip({ entries: [{ name: 'README.md', content: ' '.repeat(3900) }] });
    expect(codeOf(readPluginArchive(bomb, { ...small, ratioExemptBytes: 100 }))).toBe('entry-compression-ratio');
  });

  it('refuses a stored entry larger than an entry may be', () => {
    const zip = buildZip({
      entries: [
        { name: 'README.md', content: text(5000), method: 'store', declared: { size: 100, compressedSize: 5000 } },
      ],
    });
    expect(codeOf(readPluginArchive(zip, small))).toBe('entry-size-mismatch');
  });
});
