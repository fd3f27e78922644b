import { describe, expect, it } from 'vitest';
import { httpAnswerOf, smtpFailureOf, smtpStatusLineOf } from './remote-answer.ts';

const smtpError = (message: string, code: string, response?: string) =>
  Object.assign(new Error(response ? `${message}: ${response}` : message), { code, response });

describe('what a send says of the remote answer', () => {
  it('says an HTTP status with its standard phrase only, and that redirects are not followed', () => {
    expect(httpAnswerOf(204)).toBe('204 No Content');
    expect(httpAnswerOf(302)).toBe('302 Found (redirects are not followed)');
    expect(httpAnswerOf(599)).toBe('599');
  });

  it('keeps the first line of an SMTP reply and nothing that is not one', () => {
    expect(smtpStatusLineOf('250 2.0.0 Ok: queued as 1\r\nmore')).toBe('250 2.0.0 Ok: queued as 1');
    expect(smtpStatusLineOf('HTTP/1.1 200 OK')).toBeUndefined();
    expect(smtpStatusLineOf('+OK redis')).toBeUndefined();
  });

  it('keeps nodemailer’s words and the SMTP status line of a failure, never a non-SMTP answer', () => {
    expect(smtpFailureOf(smtpError('Message failed', 'EMESSAGE', '550 Mailbox unavailable'))).toBe(
      'EMESSAGE: Message failed: 550 Mailbox unavailable',
    );
    const greeting = 'HTTP/1.1 400 Bad Request\r\nsecret: the-body-of-a-loopback-service';
    const invalid = Object.assign(new Error(`Invalid greeting. response=${greeting}: ${greeting}`), {
      code: 'EPROTOCOL',
      response: greeting,
    });
    const said = smtpFailureOf(invalid);
    expect(said).toBe('EPROTOCOL: Invalid greeting (the server did not answer in SMTP)');
    expect(said).not.toContain('Bad Request');
    expect(smtpFailureOf(smtpError('connect ECONNREFUSED 127.0.0.1:25', 'ECONNECTION'))).toBe(
      'ECONNECTION: connect ECONNREFUSED 127.0.0.1:25',
    );
  });
});
