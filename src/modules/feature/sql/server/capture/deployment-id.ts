// This installation's deployment id, the <instance> segment of every capture tap's name (ADR 22): made once on first
// use and kept in sql_capture_deployment, the same for every web and worker instance on the database. Unlike
// FLOTILLA_INSTANCE_ID (hostname-port by default), it survives a renamed host, a moved port and a new instance.
import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';

/** Eight lower-case hex digits after a letter: one plain word in an Artemis address (no wildcard, no delimiter). */
function newDeploymentId(): string {
  return `d${randomBytes(4).toString('hex')}`;
}

export async function loadDeploymentId(pool: Pool): Promise<string> {
  await pool.query(
    'INSERT INTO sql_capture_deployment (singleton, deployment_id) VALUES (true, $1) ON CONFLICT (singleton) DO NOTHING',
    [newDeploymentId()],
  );
  const { rows } = await pool.query<{ deployment_id: string }>(
    'SELECT deployment_id FROM sql_capture_deployment WHERE singleton',
  );
  const id = rows[0]?.deployment_id;
  if (!id) throw new Error('sql_capture_deployment holds no deployment id');
  return id;
}
