// Prisma CLI configuration: multi-file schema (one file per module) and the migrations folder.
// DATABASE_URL is only needed by commands that talk to a database; `prisma generate` works offline.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost:5432/flotilla' },
});
