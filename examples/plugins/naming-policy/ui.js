// The sample plugin's UI half (issue 33): a panel on the queue page saying whether the queue's name follows the naming
// policy, and why. One module that imports nothing: React, the hooks, Mantine's components and the gateway come in
// `sdk`, and elements are built with sdk.h (no JSX).

/** The contributions Flotilla mounts, each inside its own error boundary. */
export function contribute(sdk) {
  const { h, useState, useEffect, fetchJson, ui } = sdk;

  function NamingPolicyPanel({ queueName }) {
    // Keyed by the name it answers, so a stale answer never shows for another queue.
    const [outcome, setOutcome] = useState({ name: null });
    useEffect(() => {
      let current = true;
      fetchJson(`/check?name=${encodeURIComponent(queueName)}`).then(
        (verdict) => {
          if (current) setOutcome({ name: queueName, verdict });
        },
        (error) => {
          if (current) setOutcome({ name: queueName, error: error instanceof Error ? error.message : String(error) });
        },
      );
      return () => {
        current = false;
      };
    }, [queueName]);

    if (outcome.name !== queueName) return h(ui.Text, { size: 'sm', c: 'dimmed' }, 'Checking the name…');
    if (outcome.error !== undefined) {
      return h(ui.Alert, { color: 'red', title: 'The naming policy could not be checked' }, outcome.error);
    }
    const { conforms, reason, pattern } = outcome.verdict;
    return h(
      ui.Stack,
      { gap: 'xs' },
      h(
        ui.Group,
        { gap: 'xs' },
        h(ui.Badge, { color: conforms ? 'green' : 'orange' }, conforms ? 'Conforms' : 'Does not conform'),
        h(ui.Text, { size: 'sm', ff: 'monospace' }, queueName),
      ),
      h(ui.Text, { size: 'sm' }, reason),
      h(ui.Text, { size: 'xs', c: 'dimmed' }, `Policy: ${pattern}`),
    );
  }

  return [
    {
      kind: 'panel',
      slot: 'queue.detail.panels',
      id: 'naming-policy.queue-panel',
      title: 'Naming policy',
      render: (props) => h(NamingPolicyPanel, props),
    },
  ];
}
