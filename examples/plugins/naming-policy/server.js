// The sample plugin's server half (issue 33): a queue naming policy. One self-contained module that imports nothing,
// run by Flotilla in a process of its own; everything it reaches goes through `api`, whose calls cross IPC to the host.
// The policy is one setting (a regular expression); the verdict below is the plugin's whole logic, and the route, the
// cluster route, the job and the MCP tool only feed it names.

const PATTERN_SETTING = 'naming-policy.pattern';
const DEFAULT_PATTERN = '^[a-z][a-z0-9]*(\\.[a-z0-9-]+)+$';
const VIOLATIONS_TOPIC = 'naming-policy.violations';
// The broker's own queues (dead letters, expiry, management and cluster plumbing): not ours to rename.
const BROKER_QUEUES = /^(DLQ|ExpiryQueue|\$.*|activemq\..*|notif\..*)$/;
const MAX_NAME_LENGTH = 1024;

/**
 * The policy from the setting's text: `{ pattern, test }`, or `{ pattern, error }` when the text is no regular
 * expression — an error every caller reports as it is, never a crash.
 */
function compilePolicy(pattern) {
  if (typeof pattern !== 'string' || pattern.trim() === '') {
    return {
      pattern: String(pattern ?? ''),
      error: `The setting ${PATTERN_SETTING} is empty: set a regular expression.`,
    };
  }
  try {
    const expression = new RegExp(pattern);
    return { pattern, test: (name) => expression.test(name) };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { pattern, error: `The setting ${PATTERN_SETTING} is not a valid regular expression: ${why}` };
  }
}

/** The verdict on one name under a compiled policy: `{ name, pattern, conforms, reason }`. */
function judge(policy, name) {
  const { pattern } = policy;
  if (BROKER_QUEUES.test(name)) {
    return { name, pattern, conforms: true, reason: "Exempt: one of the broker's own queues." };
  }
  if (policy.test(name)) return { name, pattern, conforms: true, reason: `Matches ${pattern}.` };
  const hints = [];
  if (name !== name.trim()) hints.push('it has leading or trailing spaces');
  if (/[A-Z]/.test(name) && policy.test(name.toLowerCase())) hints.push('it would conform in lower case');
  const hint = hints.length > 0 ? ` (${hints.join('; ')})` : '';
  return { name, pattern, conforms: false, reason: `Does not match ${pattern}${hint}.` };
}

/** A name given by a caller, or the reason it is unusable. */
function checkName(name) {
  if (typeof name !== 'string' || name === '') return { error: 'Give the queue name to check: name is required.' };
  if (name.length > MAX_NAME_LENGTH) return { error: `A queue name is at most ${MAX_NAME_LENGTH} characters.` };
  return { name };
}

const answer = (status, body) => ({ status, headers: { 'content-type': 'application/json' }, body });

/** Activation: reads nothing yet, registers the route handlers, the job and the tool. */
export async function activate(api) {
  async function currentPolicy() {
    const value = await api.settings.get(PATTERN_SETTING);
    return compilePolicy(value ?? DEFAULT_PATTERN);
  }

  api.routes.add('GET', '/check', async (request) => {
    const raw = request.query?.name;
    const given = checkName(Array.isArray(raw) ? raw[0] : raw);
    if (given.error) return answer(400, { error: given.error });
    const policy = await currentPolicy();
    if (policy.error) return answer(503, { error: policy.error, pattern: policy.pattern });
    return answer(200, judge(policy, given.name));
  });

  api.routes.add('GET', '/violations', async (request) => {
    const policy = await currentPolicy();
    if (policy.error) return answer(503, { error: policy.error, pattern: policy.pattern });
    const queues = await api.queues.list(request.clusterId);
    const violations = queues
      .map((queue) => ({ queue, verdict: judge(policy, queue.name) }))
      .filter(({ verdict }) => !verdict.conforms)
      .map(({ queue, verdict }) => ({ name: queue.name, address: queue.address, reason: verdict.reason }));
    return answer(200, { clusterId: request.clusterId, pattern: policy.pattern, checked: queues.length, violations });
  });

  api.jobs.add('naming-policy.scan', async () => {
    const policy = await currentPolicy();
    if (policy.error) throw new Error(policy.error);
    const clusters = await api.clusters.list();
    const counts = { clusters: clusters.length, unreachable: 0, queues: 0, violations: 0, added: 0, removed: 0 };
    for (const cluster of clusters) {
      let queues;
      try {
        queues = await api.queues.list(cluster.id);
      } catch (error) {
        // Its violations stay as last seen: an unreachable cluster has not fixed anything.
        counts.unreachable += 1;
        api.log.warn('naming-policy.scan could not list the queues of a cluster', {
          clusterId: cluster.id,
          error: String(error),
        });
        continue;
      }
      counts.queues += queues.length;
      const found = new Map();
      for (const queue of queues) {
        const verdict = judge(policy, queue.name);
        if (!verdict.conforms) found.set(queue.name, verdict.reason);
      }
      const known = await api.db.query('SELECT queue_name FROM violation WHERE cluster_id = $1', [cluster.id]);
      const before = new Set(known.rows.map((row) => row.queue_name));
      for (const [name, reason] of found) {
        if (!before.has(name)) counts.added += 1;
        await api.db.query(
          'INSERT INTO violation (cluster_id, queue_name, reason) VALUES ($1, $2, $3) ' +
            'ON CONFLICT (cluster_id, queue_name) DO UPDATE SET reason = excluded.reason, seen_at = now()',
          [cluster.id, name, reason],
        );
      }
      const fixed = [...before].filter((name) => !found.has(name));
      if (fixed.length > 0) {
        await api.db.query('DELETE FROM violation WHERE cluster_id = $1 AND queue_name = ANY($2)', [cluster.id, fixed]);
        counts.removed += fixed.length;
      }
      counts.violations += found.size;
    }
    // Clusters removed from Flotilla take their violations with them.
    const gone = await api.db.query('DELETE FROM violation WHERE NOT (cluster_id = ANY($1)) RETURNING queue_name', [
      clusters.map((cluster) => cluster.id),
    ]);
    counts.removed += gone.rows.length;
    if (counts.added > 0 || counts.removed > 0) {
      await api.topics.publish(VIOLATIONS_TOPIC, {
        added: counts.added,
        removed: counts.removed,
        total: counts.violations,
      });
    }
    api.log.info('naming-policy.scan done', counts);
    return counts;
  });

  api.tools.add('naming_policy_check', async (input) => {
    const given = checkName(input?.name);
    if (given.error) throw new Error(given.error);
    const policy = await currentPolicy();
    if (policy.error) throw new Error(policy.error);
    return judge(policy, given.name);
  });

  api.log.info('naming-policy active', { version: api.version });
}

/** Nothing to release: the host drops the registrations and the process. */
export function deactivate() {}
