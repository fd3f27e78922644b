// The one rule for a new password, whoever sets it: the user changing their own, or an administrator creating an
// account or resetting one. Length first; then no trivially repeated pattern (aaaaaaaaaaaa, abcabcabcabc) and, where
// the account is known, not the username inside it.
import { z } from 'zod';
import { ProblemError, validationProblem } from '@/modules/kernel/core/index.ts';

const MIN_PASSWORD_LENGTH = 12;

/** One to four characters said over and over is no password, whatever its length. */
const REPEATED = /^(.{1,4})\1+$/su;

export const newPasswordSchema = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `must have at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(1_000)
  .refine((password) => !REPEATED.test(password), 'must not be a few characters repeated');

/** Refuses a password holding its account's username (regardless of case), for the given input field. */
export function refusePasswordWithUsername(password: string, username: string, field: string): void {
  const name = username.trim().toLowerCase();
  if (name.length < 3 || !password.toLowerCase().includes(name)) return;
  throw new ProblemError(
    validationProblem(
      [{ field, message: 'must not contain the username' }],
      'A password must not contain the username.',
    ),
  );
}
