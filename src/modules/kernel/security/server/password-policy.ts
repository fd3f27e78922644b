// The one rule for a new password, whoever sets it: the user changing their own, or an administrator creating an
// account or resetting one.
import { z } from 'zod';

export const MIN_PASSWORD_LENGTH = 12;

export const newPasswordSchema = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `must have at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(1_000);
