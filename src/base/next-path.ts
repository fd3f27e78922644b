// Where to send the browser after sign-in (`?next=`): only a path on this site. One function for the sign-in page
// and the server's redirects, so the two cannot disagree. It resolves `next` the way a browser would — the URL
// parser drops tabs and newlines anywhere and reads `\` as `/` — and keeps it only when it stays on the origin.
const ORIGIN = 'http://flotilla.invalid';

export function safeNextPath(next: string | null | undefined): string {
  if (!next?.startsWith('/')) return '/';
  let resolved: URL;
  try {
    resolved = new URL(next, ORIGIN);
  } catch {
    return '/';
  }
  if (resolved.origin !== ORIGIN) return '/';
  // The parsed form, never the raw input: what the browser will follow is exactly what was checked. Parsing can
  // itself make a path that leaves the site (`/.//evil.example` and `/..//evil.example` become `//evil.example`),
  // so the result must resolve to the very URL that was checked.
  const path = `${resolved.pathname}${resolved.search}${resolved.hash}`;
  return new URL(path, ORIGIN).href === resolved.href ? path : '/';
}
