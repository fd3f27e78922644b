// The first page. The console shell (navigation, screens) replaces it in the shell issue.
export default function HomePage() {
  return (
    <main>
      <h1>Flotilla</h1>
      <p>
        One console, JSON API and MCP endpoint for whole fleets of Apache ActiveMQ Artemis clusters: every node of every
        cluster at once, explained, with every write previewed, capped and audited.
      </p>
      <h2>What you can use today</h2>
      <ul>
        <li>
          <a href="/api/v1/manifest">Installed modules</a> and whether each is on
        </li>
        <li>
          <a href="/api/v1/settings">Settings</a>, <a href="/api/v1/audit">audit log</a> and{' '}
          <a href="/api/v1/system/jobs">scheduled jobs</a>
        </li>
        <li>
          <a href="/api/v1/openapi.json">The OpenAPI document</a> of the REST API
        </li>
        <li>
          <a href="/actuator/health/flotilla">Health</a>
        </li>
      </ul>
      <p className="muted">Registering clusters comes next; the console screens arrive with it.</p>
    </main>
  );
}
