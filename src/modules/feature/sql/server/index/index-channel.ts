// The bus message that tells web processes new message_index rows were committed: a cluster and a seq range, never
// the rows (PostgreSQL NOTIFY payloads are capped at 8 KB; a tail reads the rows it needs after its last seq).
export const SQL_INDEX_CHANNEL = 'flotilla_sql_index';

/** The payload, as JSON: `{ clusterId, fromSeq, toSeq }`. */
export interface IndexAppended {
  readonly clusterId: string;
  readonly fromSeq: number;
  readonly toSeq: number;
}
