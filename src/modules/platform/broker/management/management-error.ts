// Every way a management (Jolokia) call can fail, reduced to seven kinds an operator can act on. Each error carries
// advice in words and the broker configuration snippet that would fix it, because "HTTP 403" alone sends people to
// the wrong file: Artemis has four places that can refuse a call (Hawtio's login filter, jolokia-access.xml,
// management.xml and the broker itself).

export type ManagementErrorKind =
  | 'unreachable'
  | 'network-not-allowed'
  | 'tls'
  | 'auth-failed'
  | 'forbidden'
  | 'not-found'
  | 'timeout'
  | 'broker-error';

export interface ManagementProblem {
  readonly kind: ManagementErrorKind;
  readonly message: string;
  readonly advice: string;
  /** Broker configuration that would make the call succeed, with the file it belongs in. */
  readonly configSnippet?: string;
}

const BINDING_SNIPPET = `<!-- etc/bootstrap.xml: the web server (and Jolokia) listens here -->
<web path="web">
  <binding name="artemis" uri="http://0.0.0.0:8161">
    <app name="console" url="console" war="console.war"/>
  </binding>
</web>`;

const TLS_SNIPPET = `<!-- etc/bootstrap.xml: serve Jolokia over TLS with a certificate Flotilla's CA list trusts -->
<binding name="artemis" uri="https://broker.example.net:8161"
         keyStorePath="\${artemis.instance}/etc/broker-keystore.p12" keyStorePassword="…"
         clientAuth="false">
  <app name="console" url="console" war="console.war"/>
</binding>`;

const AUTH_SNIPPET = `# etc/artemis-users.properties and etc/artemis-roles.properties: a user with a console role
flotilla = <password>
amq = admin,flotilla
# etc/artemis.profile: the roles allowed to log in to the console and Jolokia
HAWTIO_ROLES='amq'`;

const ORIGIN_SNIPPET = `<!-- etc/jolokia-access.xml: allow Flotilla's Origin (it sends the management URL's origin) -->
<restrict>
  <cors>
    <allow-origin>*://flotilla-host*</allow-origin>
    <strict-checking/>
  </cors>
</restrict>`;

export const RBAC_SNIPPET = `<!-- etc/management.xml: let Flotilla's role call management operations -->
<role-access>
  <match domain="org.apache.activemq.artemis">
    <access method="list*" roles="amq,flotilla"/>
    <access method="get*" roles="amq,flotilla"/>
    <access method="is*" roles="amq,flotilla"/>
    <access method="browse*" roles="amq,flotilla"/>
    <access method="*" roles="amq,flotilla"/>
  </match>
</role-access>`;

const NOT_FOUND_SNIPPET = `<!-- The broker MBean is registered only while JMX management is on (etc/broker.xml) -->
<jmx-management-enabled>true</jmx-management-enabled>
<!-- and the web console app must be deployed at /console (etc/bootstrap.xml) -->
<app name="console" url="console" war="console.war"/>`;

function problemFor(kind: ManagementErrorKind, message: string): ManagementProblem {
  switch (kind) {
    case 'unreachable':
      return {
        kind,
        message,
        advice:
          'Nothing answered as Jolokia at this address. Check host and port (the web console port, 8161 by default, not the messaging port), that the broker is running, and that its web server binds an address Flotilla can reach.',
        configSnippet: BINDING_SNIPPET,
      };
    case 'network-not-allowed':
      return {
        kind,
        message,
        advice:
          'Flotilla may only reach brokers in the networks of the setting clusters.allowed-networks (private and loopback networks unless changed). Add the broker’s network there if it is one of yours.',
      };
    case 'tls':
      return {
        kind,
        message,
        advice:
          'The TLS handshake failed: the broker’s certificate is not trusted by the CA Flotilla was given, does not name the host, or the broker wants a client certificate. Give Flotilla the CA that signed the broker certificate (and a client certificate if clientAuth is on).',
        configSnippet: TLS_SNIPPET,
      };
    case 'auth-failed':
      return {
        kind,
        message,
        advice:
          'The broker’s console login refused these credentials: the user or password is wrong, or the user has no role listed in HAWTIO_ROLES. After repeated failures the broker also throttles logins for a while (HTTP 429).',
        configSnippet: AUTH_SNIPPET,
      };
    case 'forbidden':
      return {
        kind,
        message,
        advice:
          'The login worked but the broker refused the call: either jolokia-access.xml rejects Flotilla’s Origin header (strict CORS checking), or management.xml does not grant the user’s role this method.',
        configSnippet: /origin/i.test(message) ? ORIGIN_SNIPPET : RBAC_SNIPPET,
      };
    case 'not-found':
      return {
        kind,
        message,
        advice:
          'Jolokia answered but the MBean, attribute or operation does not exist: the broker name, queue or address may be wrong, the broker may be an older version without this operation, or JMX management is off.',
        configSnippet: NOT_FOUND_SNIPPET,
      };
    case 'timeout':
      return {
        kind,
        message,
        advice:
          'The broker did not answer in time. It may be overloaded (heavy management operations share one broker-wide lock), paused by garbage collection, or the network drops packets. Raise broker.management.timeout only if the broker is known to be slow.',
      };
    case 'broker-error':
      return {
        kind,
        message,
        advice:
          'The broker ran the call and it failed. The message is the broker’s own; check the arguments and the broker log.',
      };
  }
}

export class ManagementError extends Error {
  readonly kind: ManagementErrorKind;
  readonly advice: string;
  readonly configSnippet: string | undefined;

  constructor(
    kind: ManagementErrorKind,
    message: string,
    readonly nodeUrl: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ManagementError';
    const problem = problemFor(kind, message);
    this.kind = kind;
    this.advice = problem.advice;
    this.configSnippet = problem.configSnippet;
  }

  toProblem(): ManagementProblem {
    return { kind: this.kind, message: this.message, advice: this.advice, configSnippet: this.configSnippet };
  }
}

const TLS_CODES =
  /^(CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_|ERR_TLS_|ERR_SSL_|EPROTO$|HOSTNAME_MISMATCH)/;
const NOT_ALLOWED_CODES = /^ENETNOTALLOWED$/;
const UNREACHABLE_CODES = /^(ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN|EPIPE|HPE_)/;

/** Kind of a failure below HTTP (socket, DNS, TLS). */
export function kindOfNetworkError(error: unknown): ManagementErrorKind {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && NOT_ALLOWED_CODES.test(code)) return 'network-not-allowed';
  if (typeof code === 'string' && TLS_CODES.test(code)) return 'tls';
  if (typeof code === 'string' && UNREACHABLE_CODES.test(code)) return 'unreachable';
  if (error instanceof Error && /socket hang up|ssl|tls|certificate/i.test(error.message)) {
    return /ssl|tls|certificate/i.test(error.message) ? 'tls' : 'unreachable';
  }
  return 'unreachable';
}

/** Kind of an HTTP reply that is not Jolokia JSON (Hawtio's login filter answers these itself). */
export function kindOfHttpStatus(status: number): ManagementErrorKind {
  if (status === 401 || status === 403 || status === 429) return 'auth-failed';
  // A bare 404 (no Jolokia JSON) is the web server saying there is no Jolokia at this path: not a broker answer.
  if (status === 404) return 'unreachable';
  if (status === 408 || status === 504) return 'timeout';
  if (status === 502 || status === 503) return 'unreachable';
  return 'broker-error';
}

/** Kind of one Jolokia result with a non-200 status in its body. */
export function kindOfJolokiaError(status: number, errorType: string, error: string): ManagementErrorKind {
  if (status === 403 || /SecurityException/.test(errorType) || /not allowed|access denied/i.test(error))
    return 'forbidden';
  if (
    status === 404 ||
    /InstanceNotFound|AttributeNotFound|ReflectionException/.test(errorType) ||
    /no operation .* found|not found/i.test(error)
  ) {
    return 'not-found';
  }
  return 'broker-error';
}
