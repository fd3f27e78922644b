// Runs `prisma generate` without network access. Prisma's CLI insists on a schema-engine binary even though
// generating the TypeScript client never uses it; pointing it at any existing file stops the download attempt.
// See docs/architecture.md ("Database").
import { spawnSync } from 'node:child_process';

const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
};
const result = spawnSync('npx', ['--no-install', 'prisma', 'generate'], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
