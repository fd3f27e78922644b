'use client';
// A form's failed request: the fields the problem names get their message inline, anything else shows as the
// whole problem under the form.
import { problemOf } from '@/ui/data/problem.ts';
import { ProblemView } from '@/ui/parts/problem-view.tsx';

/** The problem's message for one field, or undefined. */
export function fieldErrors(error: unknown): (field: string) => string | undefined {
  const errors = error ? (problemOf(error).errors ?? []) : [];
  return (field) => errors.find((entry) => entry.field === field)?.message;
}

/** Shows the problem unless every field it names is one the form shows inline. */
export function FormProblem({ error, fields }: { error: unknown; fields: readonly string[] }) {
  if (!error) return null;
  const named = problemOf(error).errors ?? [];
  if (named.length > 0 && named.every((entry) => fields.includes(entry.field))) return null;
  return <ProblemView error={error} />;
}
