// The e2e suite runs the production build, as `npm start` does; it is made once here when missing or stale.
import { buildIfNeeded } from '../../src/server/process/build.ts';

export function setup(): void {
  buildIfNeeded(process.cwd());
}
