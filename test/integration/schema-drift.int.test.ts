// Fails when the Prisma schema and the migrated database disagree: every model's table and columns must exist
// with matching nullability and a compatible type, and the database must hold nothing the models do not know.
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareSchemaWithDatabase, parsePrismaModels } from '@test/prisma-schema.ts';
import { createTestDatabase, type TestDatabase } from '@test/database.ts';

const models = parsePrismaModels(path.resolve(import.meta.dirname, '../../prisma/schema'));
let database: TestDatabase;
let client: pg.Client;

beforeAll(async () => {
  database = await createTestDatabase();
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
});

afterAll(async () => {
  await client.end();
  await database.drop();
});

describe('Prisma schema versus migrations', () => {
  it('reads every model of the schema files', () => {
    expect(models.map((model) => model.table).sort()).toEqual([
      'alert',
      'alert_channel',
      'alert_delivery',
      'alert_evaluation',
      'alert_rule',
      'alert_transition',
      'api_token',
      'audit_event',
      'broker_event',
      'broker_event_dropped',
      'broker_worker_report',
      'classification_finding',
      'cluster',
      'cluster_capability',
      'cluster_node',
      'cluster_node_subscription',
      'config_applied_item',
      'config_apply_run',
      'config_approval',
      'config_drift',
      'config_revision',
      'config_secret',
      'environment',
      'flotilla_grant',
      'flotilla_role',
      'flotilla_session',
      'flotilla_setting',
      'flotilla_user',
      'governance_policy',
      'identity_group_mapping',
      'identity_oidc_secret',
      'identity_provider_default_role',
      'identity_user_groups',
      'job_status',
      'message_index',
      'metric_minute',
      'metric_sample',
      'node_metric_sample',
      'plugin',
      'plugin_archive',
      'plugin_boot',
      'plugin_migration',
      'queue_snapshot',
      'queue_total',
      'queue_verdict',
      'rr_event',
      'rr_expectation',
      'rr_expectation_revision',
      'scrape_dead_letter_address',
      'scrape_dead_letter_read',
      'scrape_sweep',
      'sign_in_known_address',
      'sign_in_throttle',
      'sql_capture_deployment',
      'sql_saved_query',
      'sql_subscription',
      'verdict_evaluation',
    ]);
    expect(
      models.find((model) => model.table === 'audit_event')?.columns.find((column) => column.field === 'clusterId'),
    ).toEqual({
      field: 'clusterId',
      column: 'cluster_id',
      prismaType: 'String',
      required: false,
      list: false,
    });
  });

  it('agree after all migrations, partitions of metric_sample left out', async () => {
    await client.query(
      `CREATE TABLE metric_sample_p20990101 PARTITION OF metric_sample FOR VALUES FROM ('2099-01-01') TO ('2099-01-02')`,
    );
    expect(await compareSchemaWithDatabase(models, client)).toEqual([]);
  });

  it('disagree when a migration drifts from the schema', async () => {
    await client.query('BEGIN');
    try {
      await client.query('ALTER TABLE audit_event ALTER COLUMN actor DROP NOT NULL');
      await client.query('ALTER TABLE job_status DROP COLUMN last_summary');
      await client.query('ALTER TABLE flotilla_setting ADD COLUMN note text');
      await client.query('ALTER TABLE audit_event ALTER COLUMN dry_run TYPE text');
      await client.query('CREATE TABLE stray (id int)');
      // A partitioned parent is still checked (the partition child inherits the column and is not reported).
      await client.query('ALTER TABLE metric_sample ADD COLUMN note text');
      expect(await compareSchemaWithDatabase(models, client)).toEqual([
        'audit_event.actor is nullable but the model says required',
        'audit_event.dry_run is text, which cannot hold a Prisma Boolean',
        'job_status.last_summary (JobStatus.lastSummary) does not exist',
        'metric_sample.note exists in the database but not in model MetricSample',
        'flotilla_setting.note exists in the database but not in model FlotillaSetting',
        'table stray has no Prisma model',
      ]);
    } finally {
      await client.query('ROLLBACK');
    }
  });
});
