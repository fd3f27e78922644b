// What a channel's send may say of the remote answer: its status line and nothing more. Whatever answered may not be
// the service the operator meant (a loopback admin page, a metadata endpoint), and its words are not ours to show:
// not in the test-send result, the delivery log, the channels list, MCP nor the stream.
import { STATUS_CODES } from 'node:http';

/** `204 No Content`: the status and its standard reason phrase (the server's own phrase is not repeated). */
export function httpAnswerOf(status: number): string {
  const line = `${status} ${STATUS_CODES[status] ?? ''}`.trim();
  return status >= 300 && status < 400 ? `${line} (redirects are not followed)` : line;
}

/** The first line of an SMTP reply (`250 2.0.0 Ok: queued`), or undefined when the text is not one. */
export function smtpStatusLineOf(reply: unknown): string | undefined {
  if (typeof reply !== 'string') return undefined;
  const first = reply.split(/\r?\n/, 1)[0] ?? '';
  return /^[2-5]\d\d(?:[ -]|$)/.test(first) ? first.slice(0, 200) : undefined;
}

/**
 * What an SMTP failure says: nodemailer's own words without the server's answer it appends (`…: <reply>`, or
 * `response=<reply>`), then the reply's status line when it is an SMTP reply at all.
 */
export function smtpFailureOf(error: unknown): string {
  if (!(error instanceof Error)) return 'the send failed';
  const reply = (error as { response?: unknown }).response;
  const code = (error as { code?: unknown }).code;
  let own = error.message.split(/\r?\n/, 1)[0] ?? '';
  if (typeof reply === 'string' && reply !== '') {
    const appended = own.indexOf(`: ${reply.split(/\r?\n/, 1)[0] ?? ''}`);
    if (appended >= 0) own = own.slice(0, appended);
    own = own.replace(/\.?\s*response=.*$/, '');
  }
  const line = smtpStatusLineOf(reply);
  const unshown = typeof reply === 'string' && reply !== '' && !line ? ' (the server did not answer in SMTP)' : '';
  const prefix = typeof code === 'string' && !own.includes(code) ? `${code}: ` : '';
  return `${prefix}${own}${unshown}${line ? `: ${line}` : ''}`.slice(0, 300);
}
