'use client';
// The operation dialog's state: the preview (a dry run of exactly the parameters asked for, run when asked and
// never again by itself) and the real run's phase: running, refused over the bulk cap, done or failed.
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { capRefusal } from './command-answers.ts';
import type { CommandResult } from './command-nodes.tsx';
import type { OperationSpec } from './operation-spec.ts';

type Phase =
  | { readonly kind: 'idle' }
  | { readonly kind: 'running'; readonly override: boolean }
  | { readonly kind: 'capped'; readonly affectedCount: number; readonly cap: number }
  | { readonly kind: 'done'; readonly result: CommandResult }
  | { readonly kind: 'failed'; readonly error: unknown };

export function useOperationRun(spec: OperationSpec) {
  const id = useId();
  // The parameters a preview was asked for; without a form it is asked for at once.
  const [requested, setRequested] = useState<string | undefined>(spec.form ? undefined : spec.parameters);
  const [round, setRound] = useState(0);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [override, setOverride] = useState(false);
  const previewing = requested !== undefined && requested === spec.parameters && spec.ready;
  // A dry run writes an audit row: it runs when asked, never again by itself (focus, remount, reconnect).
  const preview = useQuery({
    queryKey: ['operation-preview', id, spec.parameters, round],
    queryFn: () => spec.run({ dryRun: true, override: false }),
    enabled: previewing,
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

  /** Asks for a preview of the parameters as they stand; asked again for the same ones, it runs once more. */
  const askPreview = () => {
    setRequested(spec.parameters);
    if (requested === spec.parameters) setRound((current) => current + 1);
  };

  const act = async (withOverride: boolean) => {
    setPhase({ kind: 'running', override: withOverride });
    try {
      const result = await spec.run({ dryRun: false, override: withOverride });
      setPhase({ kind: 'done', result });
    } catch (error) {
      const refusal = withOverride ? undefined : capRefusal(error);
      setPhase(refusal ? { kind: 'capped', ...refusal } : { kind: 'failed', error });
    }
  };

  return {
    preview,
    previewing,
    /** The preview of the parameters as they stand, if there is one. */
    data: previewing ? preview.data : undefined,
    askPreview,
    phase,
    act,
    override,
    setOverride,
  };
}
