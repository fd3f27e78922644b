// Node 20's permission model checks the path a plugin names, not where it leads: a symbolic link inside the plugin's
// folder pointing at /etc/passwd would be read through (tried on 20.20). Archive validation refuses links, and the
// child cannot make any (no write access); this check before every start is the runtime's own fence against a folder
// that holds one anyway (a hand-made install, an unpacker's bug). Hard links and special files are refused alike.
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';

const MAX_ENTRIES = 10_000;

/** Resolves when everything below `directory` is a plain directory or a regular file with one link; throws naming the first that is not. */
export async function assertPlainFolder(directory: string): Promise<void> {
  let seen = 0;
  const pending = [directory];
  for (let folder = pending.pop(); folder !== undefined; folder = pending.pop()) {
    for (const name of await readdir(folder)) {
      if (++seen > MAX_ENTRIES) throw new Error(`the plugin folder ${directory} holds over ${MAX_ENTRIES} entries`);
      const entry = path.join(folder, name);
      const stats = await lstat(entry);
      if (stats.isDirectory()) pending.push(entry);
      else if (stats.isSymbolicLink()) throw new Error(`the plugin folder holds a symbolic link: ${entry}`);
      else if (!stats.isFile()) throw new Error(`the plugin folder holds something other than files: ${entry}`);
      else if (stats.nlink > 1) throw new Error(`the plugin folder holds a file with other hard links: ${entry}`);
    }
  }
}

/** The server bundle's absolute path, which must lie inside the plugin's folder. */
export function entryWithin(directory: string, entry: string): string {
  const resolved = path.resolve(directory, entry);
  if (!resolved.startsWith(directory + path.sep)) throw new Error(`serverEntry '${entry}' is outside ${directory}`);
  return resolved;
}
