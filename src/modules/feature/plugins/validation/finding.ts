// What validation answers when it refuses something: a stable code for tests and the UI, the archive entry it is
// about, and a sentence an admin can act on.

export interface Finding {
  /** Stable kebab-case identifier, e.g. `entry-symlink`. */
  readonly code: string;
  /** The archive entry the finding is about, when there is one (e.g. `server.js`, `migrations/001-init.sql`). */
  readonly entry?: string;
  readonly message: string;
}
