// What the console needs to know about the session the security kernel keeps: the CSRF token to echo on changes,
// and where to send a viewer who is not signed in. The session itself is an HttpOnly cookie the browser sends.

const SIGN_IN_PATH = '/sign-in';

/** The `flotilla_csrf` cookie's value; a change made with the session cookie must send it as X-CSRF-Token. */
function csrfToken(): string | undefined {
  if (typeof document === 'undefined') return undefined;
  const entry = document.cookie.split('; ').find((cookie) => cookie.startsWith('flotilla_csrf='));
  return entry ? decodeURIComponent(entry.slice('flotilla_csrf='.length)) : undefined;
}

export function csrfHeaders(): Record<string, string> {
  const token = csrfToken();
  return token ? { 'X-CSRF-Token': token } : {};
}

/** Sends the viewer to sign in, and back here afterwards. */
export function redirectToSignIn(): void {
  if (window.location.pathname === SIGN_IN_PATH) return;
  const next = `${window.location.pathname}${window.location.search}`;
  window.location.assign(`${SIGN_IN_PATH}?next=${encodeURIComponent(next)}`);
}

const CHANGE_PASSWORD_PATH = '/change-password';

export function changePasswordPath(next: string): string {
  return `${CHANGE_PASSWORD_PATH}?next=${encodeURIComponent(next)}`;
}

/** A user whose password must change can do nothing else first: send them to change it, then come back. */
export function redirectToChangePassword(): void {
  if (window.location.pathname === CHANGE_PASSWORD_PATH) return;
  window.location.assign(changePasswordPath(`${window.location.pathname}${window.location.search}`));
}

/** Ends the session (POST /api/v1/auth/logout), then a full page load of the sign-in page drops every cached query. */
export async function signOut(): Promise<void> {
  await fetch('/api/v1/auth/logout', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...csrfHeaders() },
    body: '{}',
  }).catch(() => undefined);
  window.location.assign(SIGN_IN_PATH);
}
