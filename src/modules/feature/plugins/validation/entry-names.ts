// Which names an archive entry may have: first whether the name is safe to use as a path at all (zip-slip), then
// whether it is one of the few entries the plugin format allows. Pure string checks, shared by the archive reader.

/** Directories the format allows, each holding files only (no nested folders). */
const ALLOWED_DIRECTORIES = ['migrations/', 'assets/'];
const ROOT_FILES = new Set(['plugin.json', 'server.js', 'ui.js', 'README.md', 'LICENSE']);
/** `migrations/NNN-name.sql`: three digits order them, the rest says what they do. */
export const MIGRATION_NAME = /^migrations\/\d{3}-[a-z0-9][a-z0-9-]*\.sql$/;
const ASSET_NAME = /^assets\/[A-Za-z0-9][A-Za-z0-9._-]*\.(png|svg|css)$/;

/** Why a name cannot be a path inside the plugin's folder, or undefined when it can. */
export function unsafePathReason(name: string): string | undefined {
  if (name.length === 0) return 'it is empty';
  if (name.includes('\0')) return 'it contains a NUL character';
  if (name.includes('\\')) return 'it contains a backslash';
  if (name.startsWith('/')) return 'it is an absolute path';
  if (/^[A-Za-z]:/.test(name)) return 'it starts with a drive letter';
  // Control characters hide a name's real shape in listings and logs.
  if (/\p{Cc}/u.test(name)) return 'it contains a control character';
  const segments = name.endsWith('/') ? name.slice(0, -1).split('/') : name.split('/');
  if (segments.some((segment) => segment === '..')) return 'it climbs out of the archive with `..`';
  if (segments.some((segment) => segment === '.' || segment === '')) return 'it has an empty or `.` path segment';
  return undefined;
}

export function isAllowedDirectory(name: string): boolean {
  return ALLOWED_DIRECTORIES.includes(name);
}

export function isAllowedFile(name: string): boolean {
  return ROOT_FILES.has(name) || MIGRATION_NAME.test(name) || ASSET_NAME.test(name);
}
