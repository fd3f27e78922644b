// The one rule for a new password, whoever sets it: the user changing their own, an administrator creating an
// account or resetting one, and the first admin from FLOTILLA_ADMIN_PASSWORD. Length first (12 to 1,000); then not
// the username inside it; then zxcvbn's strength estimate (offline: its dictionaries of common passwords, names and
// words ship with the package) must reach MIN_SCORE, with the username and the product's names as words it knows.
// `Password1234` scores 1 and is refused with zxcvbn's own explanation. Why zxcvbn-ts: docs/adr/0019.
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { z } from 'zod';
import { ProblemError, validationProblem } from '@/modules/kernel/core/index.ts';

const MIN_PASSWORD_LENGTH = 12;

/** zxcvbn's scale: 0 too guessable … 4 very unguessable; 3 is "safely unguessable" (about 10^10 guesses). */
const MIN_SCORE = 3;

/** Words an attacker aiming at this installation would try first, beside the user's own name. */
const PRODUCT_WORDS = ['flotilla', 'artemis', 'activemq', 'broker'];

/** One to four characters said over and over is no password, whatever its length. */
const REPEATED = /^(.{1,4})\1+$/su;

export const newPasswordSchema = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `must have at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(1_000)
  .refine((password) => !REPEATED.test(password), 'must not be a few characters repeated');

// Imported and built on first use: importing the dictionaries decompresses them (about a CPU-second on a small
// machine, and as much again to rank them), and most processes never set a password — the worker never does.
let estimator: Promise<ZxcvbnFactory> | undefined;

async function buildEstimator(): Promise<ZxcvbnFactory> {
  const [core, common, english] = await Promise.all([
    import('@zxcvbn-ts/core'),
    import('@zxcvbn-ts/language-common'),
    import('@zxcvbn-ts/language-en'),
  ]);
  return new core.ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
    translations: english.translations,
  });
}

async function estimate(password: string, userInputs: string[]) {
  estimator ??= buildEstimator();
  return (await estimator).check(password, userInputs);
}

/** Why a password is too weak for the account `username`, in words for its owner; undefined when it is fine. */
export async function passwordWeakness(password: string, username: string): Promise<string | undefined> {
  const name = username.trim().toLowerCase();
  if (name.length >= 3 && password.toLowerCase().includes(name)) return 'must not contain the username';
  const { score, feedback } = await estimate(password, [name, ...PRODUCT_WORDS]);
  if (score >= MIN_SCORE) return undefined;
  const advice = [feedback.warning, ...feedback.suggestions].filter(Boolean).join(' ');
  return (
    `is too easy to guess (strength ${score} of 4, at least ${MIN_SCORE} needed)` +
    (advice ? `: ${advice}` : ': add more words or characters that are not common.')
  );
}

/** Refuses a weak password (see `passwordWeakness`) with a 400 naming the input field and saying why. */
export async function refuseWeakPassword(password: string, username: string, field: string): Promise<void> {
  const weakness = await passwordWeakness(password, username);
  if (!weakness) return;
  throw new ProblemError(validationProblem([{ field, message: weakness }], `The password ${weakness}`));
}
