// The `api` object a plugin's activate() receives: frozen, every call crossing the IPC channel to the host, and every
// registration checked against what the manifest declared (passed in by the host as `allowed`).

function refuse(message) {
  const error = new Error(message);
  error.code = 'ERR_PLUGIN_UNDECLARED';
  return error;
}

function routeKey(method, path) {
  return `${String(method).toUpperCase()} ${path}`;
}

/**
 * @param {{ id: string, version: string, allowed: { routes: {method: string, path: string}[], jobs: string[], tools: string[], panels: string[], events: string[] } }} init
 * @param {{ request: (message: object) => Promise<unknown>, log: (level: string, message: string, fields?: object) => void }} channel
 * @param {{ route: Map, job: Map, tool: Map, panel: Map, event: Map }} handlers filled by the registrations
 */
export function createPluginApi(init, channel, handlers) {
  const declaredRoutes = new Set(init.allowed.routes.map((route) => routeKey(route.method, route.path)));
  const declared = {
    job: new Set(init.allowed.jobs),
    tool: new Set(init.allowed.tools),
    panel: new Set(init.allowed.panels),
    event: new Set(init.allowed.events),
  };
  let open = true;

  function register(kind, key, handler, label) {
    if (!open) throw refuse(`${label} '${key}': registrations are only accepted during activate()`);
    if (typeof handler !== 'function') throw new TypeError(`${label} '${key}': the handler must be a function`);
    if (handlers[kind].has(key)) throw refuse(`${label} '${key}' is already registered`);
    handlers[kind].set(key, handler);
  }

  function registerDeclared(kind, key, handler, label) {
    if (typeof key !== 'string' || !declared[kind].has(key))
      throw refuse(`${label} '${String(key)}' is not declared in the plugin's manifest`);
    register(kind, key, handler, label);
  }

  const call = (method, params) => channel.request({ op: 'host', method: String(method), params });
  const log = (level) => (message, fields) => channel.log(level, String(message), fields);

  const api = {
    id: init.id,
    version: init.version,
    log: { info: log('info'), warn: log('warn'), error: log('error') },
    settings: { get: (key) => channel.request({ op: 'settings', key: String(key) }) },
    host: { call },
    clusters: { list: () => call('clusters.list', {}) },
    queues: { list: (clusterId, query) => call('queues.list', { clusterId, query }) },
    events: {
      list: (query) => call('events.list', { query }),
      // A core topic of its manifest's coreEvents: the handler gets { topic, clusterId, at, id?, data? }.
      on: (topic, handler) => registerDeclared('event', topic, handler, 'core event'),
    },
    db: { query: (sql, params) => call('db.query', { sql, params }) },
    topics: { publish: (topic, data) => call('topics.publish', { topic, data }) },
    routes: {
      add(method, path, handler) {
        const key = routeKey(method, path);
        if (!declaredRoutes.has(key)) throw refuse(`route '${key}' is not declared in the plugin's manifest`);
        register('route', key, handler, 'route');
      },
    },
    jobs: { add: (id, handler) => registerDeclared('job', id, handler, 'job') },
    tools: { add: (name, handler) => registerDeclared('tool', name, handler, 'tool') },
    panels: { data: (id, handler) => registerDeclared('panel', id, handler, 'panel') },
  };
  for (const value of Object.values(api)) if (typeof value === 'object') Object.freeze(value);
  return { api: Object.freeze(api), closeRegistrations: () => (open = false) };
}
