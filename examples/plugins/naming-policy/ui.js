// The sample plugin's UI half (issue 33): a panel on the queue page saying whether the queue's name follows the naming
// policy, and why; and a screen of its own (listed under Configuration) where any name can be checked before a queue
// is made. One module that imports nothing: React, the hooks, Mantine's components and the gateway come in
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

  function NameChecker() {
    const [name, setName] = useState('');
    const [outcome, setOutcome] = useState(undefined);
    const check = (event) => {
      event.preventDefault();
      const asked = name.trim();
      if (!asked) return;
      fetchJson(`/check?name=${encodeURIComponent(asked)}`).then(
        (verdict) => setOutcome({ name: asked, verdict }),
        (error) => setOutcome({ name: asked, error: error instanceof Error ? error.message : String(error) }),
      );
    };
    return h(
      ui.Stack,
      { gap: 'sm', maw: 640 },
      h(ui.Text, { size: 'sm' }, 'Check a queue name against the policy before the queue is made.'),
      h(
        'form',
        { onSubmit: check },
        h(
          ui.Group,
          { gap: 'xs', align: 'flex-end' },
          h(ui.TextInput, {
            label: 'Queue name',
            value: name,
            onChange: (event) => setName(event.currentTarget.value),
            w: 360,
            'data-testid': 'naming-policy-name',
          }),
          h(ui.Button, { type: 'submit', variant: 'light', 'data-testid': 'naming-policy-check' }, 'Check'),
        ),
      ),
      outcome === undefined
        ? null
        : outcome.error !== undefined
          ? h(ui.Alert, { color: 'red', title: 'The naming policy could not be checked' }, outcome.error)
          : h(
              ui.Stack,
              { gap: 'xs', 'data-testid': 'naming-policy-verdict' },
              h(
                ui.Group,
                { gap: 'xs' },
                h(
                  ui.Badge,
                  { color: outcome.verdict.conforms ? 'green' : 'orange' },
                  outcome.verdict.conforms ? 'Conforms' : 'Does not conform',
                ),
                h(ui.Text, { size: 'sm', ff: 'monospace' }, outcome.name),
              ),
              h(ui.Text, { size: 'sm' }, outcome.verdict.reason),
              h(ui.Text, { size: 'xs', c: 'dimmed' }, `Policy: ${outcome.verdict.pattern}`),
            ),
    );
  }

  return [
    {
      kind: 'screen',
      slot: 'nav.configuration',
      id: 'naming-policy.checker',
      title: 'Naming policy',
      render: () => h(NameChecker),
    },
    {
      kind: 'panel',
      slot: 'queue.detail.panels',
      id: 'naming-policy.queue-panel',
      title: 'Naming policy',
      render: (props) => h(NamingPolicyPanel, props),
    },
  ];
}
