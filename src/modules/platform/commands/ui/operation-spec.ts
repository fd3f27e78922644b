// What a module hands the operation dialog: the words, the form and the run of one broker command. The dialog
// (operation-dialog.tsx) does the rest: preview, confirmation, cap, outcome, audit link.
import type { ReactNode } from 'react';
import type { CommandResult } from './command-nodes.tsx';

export interface RunFlags {
  readonly dryRun: boolean;
  readonly override: boolean;
}

export interface OperationSpec {
  /** The dialog's title, e.g. "Purge orders". */
  readonly title: string;
  readonly description: ReactNode;
  /** Shown under the description, e.g. that the cluster's writes are not confirmed yet (CapabilityNote). */
  readonly notice?: ReactNode;
  /** The operation's parameters (a filter, a target queue); absent: the preview starts at once. */
  readonly form?: ReactNode;
  /** The parameters as one string: a preview is of exactly these, and a change asks for a new one. */
  readonly parameters: string;
  /** The form is complete enough to preview. */
  readonly ready: boolean;
  /** A destructive operation is held to confirm: the verb and what it counts, e.g. Purge, message(s). */
  readonly hold?: { readonly action: string; readonly noun: readonly [string, string]; readonly count?: number };
  /** The button of an operation that is not destructive, e.g. "Pause on 2 nodes". */
  readonly applyLabel?: (preview: CommandResult) => string;
  /** One sentence on what the preview says would happen. */
  readonly summary: (preview: CommandResult) => string;
  /** One sentence on what was done, e.g. "4 messages removed on 1 node" (default: the count and the nodes). */
  readonly done?: (result: CommandResult) => string;
  readonly run: (flags: RunFlags) => Promise<CommandResult>;
  /** What the audit log names as the target (the queue), for the link to its row. */
  readonly auditTarget: string;
  /** Shown below a finished operation, e.g. the way back to the queues after deleting one. */
  readonly afterwards?: ReactNode;
}
