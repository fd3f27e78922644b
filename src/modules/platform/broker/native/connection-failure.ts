// Why a native connection attempt failed, in words an operator can act on. The kind decides which broker
// configuration snippet the subscription state shows.
type ConnectionFailureKind =
  'unreachable' | 'authentication' | 'tls' | 'protocol-not-accepted' | 'closed-by-broker' | 'timeout';

export interface ConnectionFailure {
  readonly kind: ConnectionFailureKind;
  readonly message: string;
}

interface ErrorLike {
  readonly message?: string;
  readonly description?: string;
  readonly condition?: string;
  readonly code?: string;
}

function describe(error: unknown): ErrorLike {
  if (error && typeof error === 'object') return error;
  return { message: typeof error === 'string' ? error : undefined };
}

function isTlsError(code: string | undefined, text: string): boolean {
  return (
    /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|SELF_SIGNED|DEPTH_ZERO|HOSTNAME_MISMATCH)/.test(code ?? '') ||
    /certificate|ssl|tls/i.test(text)
  );
}

/**
 * Classifies the end of a connection attempt. `hadOpened` tells a lost connection from one that never got
 * through the AMQP handshake; `hasBrokerAnswered` whether any AMQP frame came back.
 */
export function classifyConnectionFailure(
  error: unknown,
  hadOpened: boolean,
  hasBrokerAnswered: boolean,
): ConnectionFailure {
  const { message, description, condition, code } = describe(error);
  const text = description ?? message ?? '';
  if (condition === 'amqp:unauthorized-access' || /authenticat/i.test(text)) {
    return { kind: 'authentication', message: `the broker refused the credentials (${text || condition})` };
  }
  if (isTlsError(code, text)) {
    return { kind: 'tls', message: `TLS handshake failed: ${text || code}` };
  }
  if (code === 'ECONNREFUSED' || code === 'EHOSTUNREACH' || code === 'ENOTFOUND' || code === 'ETIMEDOUT') {
    return { kind: 'unreachable', message: `cannot reach the AMQP port: ${code}` };
  }
  if (!hadOpened && !hasBrokerAnswered && !condition && (!text || code === 'ECONNRESET')) {
    // Artemis drops the socket without a word when the acceptor does not list AMQP in `protocols`.
    return {
      kind: 'protocol-not-accepted',
      message: 'the broker closed the connection before the AMQP handshake; its acceptor probably does not accept AMQP',
    };
  }
  const detail = [condition, text].filter(Boolean).join(': ');
  return { kind: 'closed-by-broker', message: detail ? `connection closed: ${detail}` : 'connection closed' };
}
