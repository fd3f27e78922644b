// Headers every response of the web process carries. The console may not be framed (press-and-hold actions must
// not be clickjacked), content types are not sniffed, referrers stay on this site, and the content security policy
// allows only this origin. Next.js's app router inlines its bootstrap scripts and Mantine inlines styles, so both
// need 'unsafe-inline'; every other source — foreign scripts, frames, plugins, form targets — is refused.
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
};
