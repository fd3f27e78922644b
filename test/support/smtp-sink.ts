// A real SMTP server for tests (the npm package smtp-server, the server half of nodemailer's code base) on
// 127.0.0.1: it requires AUTH with the given user and password, keeps the messages it accepts with their subject
// and plain-text body decoded, or refuses every message with 550.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

interface Mail {
  readonly from: string;
  readonly to: readonly string[];
  readonly subject: string;
  readonly text: string;
}

/** Decodes RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`) in a header value. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_match, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, '')
    .split(/(=[0-9A-F]{2})/i)
    .flatMap((part) =>
      /^=[0-9A-F]{2}$/i.test(part) ? [Buffer.from([parseInt(part.slice(1), 16)])] : [Buffer.from(part, 'utf8')],
    );
  return Buffer.concat(bytes).toString('utf8');
}

/** The subject and the plain-text body of a single-part message as nodemailer writes it. */
function parseMail(raw: string, envelope: { from: string; to: string[] }): Mail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1] ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(body)
      : encoding === 'base64'
        ? Buffer.from(body, 'base64').toString('utf8')
        : body;
  return { ...envelope, subject: decodeWords(header('Subject')), text: text.replace(/\r\n/g, '\n') };
}

/** A local SMTP server: it keeps what it accepts, or refuses every message with `refuse`. */
export async function startSmtpSink(options: { user: string; password: string; refuse?: string }) {
  const mails: Mail[] = [];
  const attempts: string[] = [];
  /** Every AUTH the server was offered (the user name), on a plain connection: this sink never speaks TLS. */
  const logins: string[] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: false,
    logger: false,
    onAuth(auth, _session, callback) {
      logins.push(auth.username ?? '');
      if (auth.username === options.user && auth.password === options.password) callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        attempts.push(new Date().toISOString());
        if (options.refuse) {
          callback(Object.assign(new Error(options.refuse), { responseCode: 550 }));
          return;
        }
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        const to = session.envelope.rcptTo.map((recipient) => recipient.address);
        mails.push(parseMail(Buffer.concat(chunks).toString('utf8'), { from, to }));
        callback(null);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    mails,
    attempts,
    logins,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
