// Structured logs for every server process (ADR 33): one JSON object per line in production, a readable line in a
// terminal. Each module logs through `logger('<module>')`; the request id, cluster id and principal come from the
// log context set where a request enters or a job runs, so a line says who and where without each call passing it.
// Secrets are removed here, once, by key (redact) and by shape (API tokens, bearer headers, URL passwords), and an
// error is written as its type, message, code, stack and cause only — never the request or body a library hung on it.
import { AsyncLocalStorage } from 'node:async_hooks';
import { format } from 'node:util';
import { pino, stdSerializers, stdTimeFunctions, type DestinationStream, type Logger } from 'pino';
import { prettyFactory } from 'pino-pretty';

export type { Logger } from 'pino';

/** What a line knows about the work it belongs to; set at the edges, merged into every line logged inside. */
export interface LogContext {
  requestId?: string;
  clusterId?: string;
  /** Who acts: the actor's name as the audit log shows it (`alice`, `alice [token: ci]`, `system`). */
  principal?: string;
  /** The job a worker line belongs to. */
  job?: string;
}

type LogFormat = 'json' | 'pretty';
const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

// Keys whose values never reach a line, at the top and two levels down (pino's redact paths name exact depths).
const SECRET_KEYS = [
  'password',
  'passwordCipher',
  'passwordHash',
  'newPassword',
  'currentPassword',
  'token',
  'accessToken',
  'refreshToken',
  'idToken',
  'csrfToken',
  'secret',
  'clientSecret',
  'secretKey',
  'privateKey',
  'apiKey',
  'authorization',
  'Authorization',
  'cookie',
  'Cookie',
  'set-cookie',
  'credentials',
];
const REDACTED_PATHS: readonly string[] = SECRET_KEYS.flatMap((key) => {
  const step = /^\w+$/.test(key) ? `.${key}` : `["${key}"]`;
  return [step.startsWith('.') ? key : step, `*${step}`, `*.*${step}`];
});

const REDACTED = '[Redacted]';
// Secrets by shape, for text a key cannot name: an error message, a URL in a message.
const SECRET_SHAPES: readonly [RegExp, string][] = [
  [/\bas_[A-Za-z0-9_-]{8,}/g, REDACTED],
  // Case-sensitive and at least 8 characters, so prose ("Basic checks passed") is left alone.
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/g, `$1 ${REDACTED}`],
  [/(\w+:\/\/[^:/?#\s@]+):[^@/?#\s]+@/g, `$1:${REDACTED}@`],
];

/** The text with API tokens, Authorization values and passwords in URLs replaced by [Redacted]. */
function scrubSecrets(text: string): string {
  return SECRET_SHAPES.reduce((scrubbed, [shape, replacement]) => scrubbed.replace(shape, replacement), text);
}

/** Strings in a line's fields scrubbed the same way, a few levels down; other values as they are. */
function scrubFields(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubSecrets(value);
  if (depth > 4 || value === null || typeof value !== 'object' || value instanceof Error) return value;
  if (Array.isArray(value)) return value.map((item) => scrubFields(item, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, scrubFields(item, depth + 1)]));
}

interface SerializedError {
  type: string;
  message: string;
  stack?: string;
  code?: string | number;
  cause?: SerializedError | string;
}

/** An error as type, message, code, stack and cause: a library's request, response or body on it stays out. */
function serializeError(value: unknown, depth = 0): SerializedError | string {
  if (!(value instanceof Error)) return scrubSecrets(typeof value === 'string' ? value : String(value));
  const plain = stdSerializers.err(value);
  const code = (value as { code?: unknown }).code;
  return {
    type: plain.type,
    message: scrubSecrets(value.message),
    ...(value.stack ? { stack: scrubSecrets(value.stack) } : {}),
    ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
    ...(value.cause !== undefined && depth < 3 ? { cause: serializeError(value.cause, depth + 1) } : {}),
  };
}

// Shared through globalThis: the web entry (loaded by Node) and the route code (bundled by Next.js) are different
// module graphs, and both must see the same context and the process name the entry set.
const STATE = Symbol.for('flotilla.log');
interface State {
  context: AsyncLocalStorage<LogContext>;
  process?: string;
  root?: Logger;
}
function state(): State {
  const holder = globalThis as { [STATE]?: State };
  holder[STATE] ??= { context: new AsyncLocalStorage<LogContext>() };
  return holder[STATE];
}

/** Names this process on every line (`supervisor`, `web`, `worker`, `database`); its entry calls it first. */
export function setLogProcess(name: string): void {
  state().process = name;
}

/** Runs `work` with these fields (and the enclosing context's) on every line it logs. */
export function withLogContext<T>(fields: LogContext, work: () => T): T {
  const { context } = state();
  return context.run({ ...context.getStore(), ...fields }, work);
}

/** Adds fields to the current context once they are known (the principal after the credential is checked). */
export function addLogContext(fields: LogContext): void {
  const store = state().context.getStore();
  if (store) Object.assign(store, fields);
}

function formatFrom(environment: NodeJS.ProcessEnv): LogFormat {
  const chosen = environment.FLOTILLA_LOG_FORMAT;
  if (chosen === 'json' || chosen === 'pretty') return chosen;
  return process.stdout.isTTY ? 'pretty' : 'json';
}

function levelFrom(environment: NodeJS.ProcessEnv): string {
  const chosen = environment.FLOTILLA_LOG_LEVEL?.toLowerCase();
  return LEVELS.find((level) => level === chosen) ?? 'info';
}

export interface LoggerOptions {
  readonly format: LogFormat;
  readonly level: string;
  /** Where lines go; standard output unless a test captures them. */
  readonly destination?: DestinationStream;
}

// Through process.stdout (synchronous on Linux for files, pipes and terminals, so nothing is lost at exit), looked
// up at each write: whatever captures the process's output (a test, a supervisor's pipe) sees every line.
// A closed standard output (a log collector gone) must not crash the process; console ignores it the same way.
function standardOutput(format: LogFormat): DestinationStream {
  process.stdout.on('error', () => undefined);
  if (format === 'json') return { write: (line) => void process.stdout.write(line) };
  const prettify = prettyFactory({
    colorize: process.stdout.isTTY,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,process,module',
    messageFormat: '{if process}{process} {end}[{module}] {msg}',
  });
  return { write: (line) => void process.stdout.write(prettify(line)) };
}

/** A root logger; `logger()` uses the one made from the environment, tests make their own. */
export function createLogger(options: LoggerOptions): Logger {
  const json = options.format === 'json';
  const destination = options.destination ?? standardOutput(options.format);
  return pino(
    {
      level: options.level,
      base: { pid: process.pid },
      timestamp: stdTimeFunctions.isoTime,
      formatters: {
        ...(json ? { level: (label: string) => ({ level: label }) } : {}),
        log: (fields) => scrubFields(fields) as Record<string, unknown>,
      },
      mixin: () => {
        const { context, process: name } = state();
        return { ...(name ? { process: name } : {}), ...context.getStore() };
      },
      redact: { paths: [...REDACTED_PATHS], censor: REDACTED },
      serializers: { err: serializeError, error: serializeError },
      hooks: {
        // A message's text may quote a secret a key cannot name (an error's message, a URL).
        logMethod(args, method) {
          // `log.error(error)`: pino would take the message from the error unscrubbed.
          const [first] = args;
          if (first instanceof Error && args.length === 1) {
            method.apply(this, [{ err: first }, scrubSecrets(first.message)]);
            return;
          }
          const scrubbed = args.map((arg) => (typeof arg === 'string' ? scrubSecrets(arg) : arg)) as typeof args;
          method.apply(this, scrubbed);
        },
      },
    },
    destination,
  );
}

function root(): Logger {
  const current = state();
  current.root ??= createLogger({ format: formatFrom(process.env), level: levelFrom(process.env) });
  return current.root;
}

/** The logger of one module (or part of the roof): every line carries `module`. */
export function logger(module: string): Logger {
  return root().child({ module });
}

/**
 * What a library prints with the console (Next.js's start-up lines, a driver's warning) becomes a log line of
 * `module` too, so a process's standard output stays one JSON object per line. Each process entry calls it once.
 */
export function routeConsoleToLog(module: string): void {
  const log = logger(module);
  const route =
    (level: 'debug' | 'info' | 'warn' | 'error') =>
    (...args: unknown[]): void => {
      log[level](format(...args));
    };
  Object.assign(console, {
    log: route('info'),
    info: route('info'),
    warn: route('warn'),
    error: route('error'),
    debug: route('debug'),
    trace: route('debug'),
  });
}
