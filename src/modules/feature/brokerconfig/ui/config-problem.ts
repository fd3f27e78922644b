// What the console reads out of a failed brokerconfig call: the problem's type (409 revision-conflict, plan-changed,
// apply-in-progress, approval-required, 422 hazard-unacknowledged, …) and a 400's field errors, each with its path in
// the document (`addressSettings.0.settings.maxDeliveryAttempts`, the input's leading `document.` taken off).
import { problemOf, type ProblemDetails } from '@/ui/data/problem.ts';

export interface FieldError {
  /** The path in the document, dot-separated; '' for the whole document or a field outside it (the comment). */
  readonly path: string;
  readonly message: string;
}

export function problemTypeOf(error: unknown): string | undefined {
  return error ? problemOf(error).type : undefined;
}

export function fieldErrorsOf(error: unknown): FieldError[] {
  if (!error) return [];
  const problem: ProblemDetails = problemOf(error);
  return (problem.errors ?? []).map((entry) => ({
    path: entry.field.replace(/^document\.?/, ''),
    message: entry.message,
  }));
}

/** What a plan-or-apply refusal means for the person in front of it, by problem type. */
export const APPLY_ADVICE: Readonly<Record<string, string>> = {
  'plan-changed': 'The cluster moved since this plan was previewed: preview again and review the new plan.',
  'apply-in-progress': 'Another apply of this cluster is running: wait for it to finish, then preview again.',
  'hazard-unacknowledged': 'Acknowledge every High hazard, one by one, before applying.',
  'approval-required': 'This cluster’s environment needs a second person to approve this exact plan.',
  'secret-missing': 'Store the bridge credential the document names (Declared → Bridge credentials), then apply.',
  'node-unreachable': 'A node could not be read, so nothing was applied: bring it back or wait, then preview again.',
};
