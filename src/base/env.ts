// The environment both processes read, validated once. The supervisor sets DATABASE_URL and
// FLOTILLA_INSTANCE_ID for its children, so a child started by hand needs only DATABASE_URL.
import { hostname } from 'node:os';
import path from 'node:path';
import { z } from 'zod';

const environmentSchema = z.object({
  DATABASE_URL: z
    .string()
    .min(1, 'DATABASE_URL must name the PostgreSQL database, e.g. postgresql://user@127.0.0.1:5432/flotilla'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  FLOTILLA_INSTANCE_ID: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'FLOTILLA_INSTANCE_ID: lower-case letters, digits and hyphens, at most 63')
    .optional(),
  FLOTILLA_DB_POOL_SIZE: z.coerce.number().int().min(2).max(100).default(10),
});

export interface Environment {
  readonly databaseUrl: string;
  readonly port: number;
  readonly instanceId: string;
  readonly poolSize: number;
  /** Where the instance keeps its files (FLOTILLA_DATA_DIR, default ./.data), absolute. */
  readonly dataDirectory: string;
}

/** A stable id for this instance: it names per-instance rows and, later, capture queues on brokers. */
export function defaultInstanceId(port: number): string {
  const host =
    hostname()
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 50) || 'flotilla';
  return `${host}-${port}`;
}

export function readEnvironment(source: Readonly<Record<string, string | undefined>> = process.env): Environment {
  const parsed = environmentSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  - ${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid environment:\n${lines.join('\n')}`);
  }
  const value = parsed.data;
  return {
    databaseUrl: value.DATABASE_URL,
    port: value.PORT,
    instanceId: value.FLOTILLA_INSTANCE_ID ?? defaultInstanceId(value.PORT),
    poolSize: value.FLOTILLA_DB_POOL_SIZE,
    dataDirectory: path.resolve(source.FLOTILLA_DATA_DIR ?? '.data'),
  };
}
