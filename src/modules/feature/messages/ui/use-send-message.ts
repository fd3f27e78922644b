'use client';
// The send dialog's state: the form, the preview (a dry run, remembered with the exact request it was of) and the
// real send, which is offered only for what was previewed and refreshes the browse and the queue numbers after.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '@/ui/data/trpc.ts';
import type { SendAnswer } from './send-answer.tsx';
import { emptySendForm, sendRequest, type RoutingType, type SendForm } from './send-request.ts';

export function useSendMessage(clusterId: string, address: string, routingType: RoutingType) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<SendForm>(() => emptySendForm(address, routingType));
  const [previewed, setPreviewed] = useState<{ input: string; answer: SendAnswer } | undefined>();
  const [sent, setSent] = useState<SendAnswer | undefined>();
  const preview = useMutation(trpc.messages.send.mutationOptions());
  const send = useMutation(
    trpc.messages.send.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries(trpc.messages.browse.pathFilter());
        await queryClient.invalidateQueries(trpc.queues.pathFilter());
      },
    }),
  );
  const update = <Field extends keyof SendForm>(field: Field, value: SendForm[Field]) =>
    setForm((current) => ({ ...current, [field]: value }));

  const { input, problem, bodyError } = sendRequest(clusterId, form);
  const key = input ? JSON.stringify(input) : undefined;
  // A preview counts only for the request exactly as it stands.
  const current = previewed && previewed.input === key ? previewed.answer : undefined;
  const previewFailed = current?.result.nodes.some((node) => node.outcome === 'FAILED') ?? false;

  return {
    form,
    update,
    input,
    problem,
    bodyError,
    preview,
    send,
    current,
    previewFailed,
    sent,
    runPreview: () => {
      if (!input || !key) return;
      preview.mutate(input, { onSuccess: (answer) => setPreviewed({ input: key, answer }) });
    },
    runSend: () => {
      if (!input) return;
      send.mutate({ ...input, dryRun: false }, { onSuccess: (answer) => setSent(answer) });
    },
    sendAnother: () => {
      setSent(undefined);
      setPreviewed(undefined);
    },
  };
}
