// The two gates of every mutating tool (spec, MCP surface). dryRun defaults to true, so a tool called with nothing
// but its subject only previews. A real destructive run needs `confirm` equal to the subject's own name (a queue's
// name, a rule's name): an agent must say what it is about to destroy. `override` is the bulk-cap override and
// nothing else; neither gate satisfies the other.
import { z } from 'zod';
import { invalidParams } from './tool-kit.ts';

export const gateArguments = {
  dryRun: z.boolean().optional().describe('Default true (preview)'),
  confirm: z.string().max(1000).optional().describe('Subject’s exact name, for a real destructive run'),
  override: z.boolean().optional().describe('Bulk-cap override'),
};

export interface GateArguments {
  readonly dryRun?: boolean | undefined;
  readonly confirm?: string | undefined;
  readonly override?: boolean | undefined;
}

export interface Subject {
  /** What the subject is, for the message: `queue`, `alert rule`. */
  readonly kind: string;
  readonly name: string;
  readonly destructive: boolean;
}

/** The flags to pass on; throws -32602 naming the fix when a real destructive run lacks the exact confirm. */
export function passGates(args: GateArguments, subject: Subject): { dryRun: boolean; override: boolean } {
  const dryRun = args.dryRun ?? true;
  const override = args.override ?? false;
  if (!dryRun && subject.destructive && args.confirm !== subject.name) {
    const given = args.confirm === undefined ? 'no confirm was given' : 'confirm does not match';
    throw invalidParams(
      `A real run of this destructive operation needs confirm equal to the ${subject.kind}'s exact name ` +
        `(${JSON.stringify(subject.name)}); ${given}. override=true is the bulk-cap override and does not replace it. ` +
        'Preview first with dryRun=true (the default).',
    );
  }
  return { dryRun, override };
}

/** What a dry run's answer adds, so the agent knows the next call. */
export function nextStep(subject: Subject): string {
  return subject.destructive
    ? `Nothing changed. To run it: dryRun=false, confirm=${JSON.stringify(subject.name)} (and override=true only if the count is over safety.bulk-cap).`
    : 'Nothing changed. To run it: dryRun=false.';
}
