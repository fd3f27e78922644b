// Problems the users, roles and grants administration answers with, so each reads the same wherever it comes from.
import { ProblemError, validationProblem, type FieldError } from '@/modules/kernel/core/index.ts';

export function notFound(what: 'user' | 'role' | 'grant'): ProblemError {
  return new ProblemError({ type: 'not-found', title: 'Not found', status: 404, detail: `No ${what} has this id.` });
}

/** Bad input the schema could not see (it needs the database): a 400 naming the fields, like any validation. */
export function invalid(errors: readonly FieldError[], detail?: string, extension: Record<string, unknown> = {}) {
  return new ProblemError({ ...validationProblem(errors, detail), ...extension });
}

export function conflict(
  type: string,
  title: string,
  detail: string,
  extension: { errors?: readonly FieldError[]; [key: string]: unknown } = {},
): ProblemError {
  return new ProblemError({ type, title, status: 409, detail, ...extension });
}

/** Prisma's unique-constraint error: a concurrent create won the race the early check could not see. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'P2002';
}
