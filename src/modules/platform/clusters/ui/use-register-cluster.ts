'use client';
// The register screen's state: the form, the probe (a dry run of the registration, kept with the form it was of)
// and Save, offered only for the form exactly as probed and only when no blocking check failed.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState, type SyntheticEvent } from 'react';
import { problemOf } from '@/ui/data/problem.ts';
import { useTRPC } from '@/ui/data/trpc.ts';
import {
  EMPTY_REGISTER_FORM,
  refusedAnswerOf,
  registerInput,
  type ProbeAnswer,
  type RegisterForm,
} from './register-form.ts';

export function useRegisterCluster() {
  const trpc = useTRPC();
  const router = useRouter();
  const [form, setForm] = useState<RegisterForm>(EMPTY_REGISTER_FORM);
  const [probed, setProbed] = useState<{ answer: ProbeAnswer; input: string } | undefined>(undefined);
  // The results land below a long form: bring them into view when they arrive, or nobody sees them.
  const results = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (probed) results.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  }, [probed]);
  const environments = useQuery(trpc.clusters.environments.list.queryOptions({ sort: 'name', page: 1, pageSize: 500 }));
  const register = useMutation(trpc.clusters.register.mutationOptions());
  const set = (field: keyof RegisterForm) => (event: { currentTarget: { value: string } }) => {
    const { value } = event.currentTarget;
    setForm((current) => ({ ...current, [field]: value }));
  };
  const fieldError = (field: string) =>
    register.isError ? problemOf(register.error).errors?.find((error) => error.field === field)?.message : undefined;
  const showRefusal = (error: unknown) => {
    const answer = refusedAnswerOf(error);
    if (answer) setProbed({ answer, input: JSON.stringify(form) });
  };

  const probe = (event: SyntheticEvent) => {
    event.preventDefault();
    const input = registerInput(form, true);
    setProbed(undefined);
    register.mutate(input, {
      onSuccess: (answer) => setProbed({ answer: { ...answer, refused: false }, input: JSON.stringify(form) }),
      onError: showRefusal,
    });
  };
  const save = () => {
    register.mutate(registerInput(form, false), {
      onSuccess: (answer) => {
        if (answer.clusterId) router.push(`/clusters/${answer.clusterId}`);
      },
      onError: showRefusal,
    });
  };

  return {
    form,
    set,
    fieldError,
    probe,
    save,
    probed,
    results,
    register,
    // Save is offered only for the form exactly as probed, and only when no blocking check failed.
    canSave: probed !== undefined && !probed.answer.refused && probed.input === JSON.stringify(form),
    knownEnvironments: environments.data?.items.map((item) => item.name) ?? [],
    otherProblem: register.isError && !refusedAnswerOf(register.error) && !fieldError('name'),
  };
}
