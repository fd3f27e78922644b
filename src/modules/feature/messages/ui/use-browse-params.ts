'use client';
// The message browser's switches kept in the URL: the node read (`?node=`) and "show in clear" (`?clear=true`). A
// refusal to show in clear (no message:clear on this cluster, a 403) turns it off again while its reason stays on
// screen.
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useEffect, useState } from 'react';
import { problemOf } from '@/ui/data/problem.ts';

/** Sets or removes one query parameter of the page; a new node starts at its first page. */
function useSetSearchParam() {
  const search = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  return (name: string, next: string | null | undefined, mode: 'push' | 'replace' = 'push') => {
    const query = new URLSearchParams(search.toString());
    if (next) query.set(name, next);
    else query.delete(name);
    if (name === 'node') query.delete('page');
    const text = query.toString();
    const target = text ? `${pathname}?${text}` : pathname;
    if (mode === 'push') router.push(target, { scroll: false });
    else router.replace(target, { scroll: false });
  };
}

export function useBrowseParams({ clear, browse }: { clear: boolean; browse: { isError: boolean; error: unknown } }) {
  const setParam = useSetSearchParam();
  // Why showing values in clear was refused (the 403's detail), kept after the switch turned itself off.
  const [clearRefused, setClearRefused] = useState<string | undefined>();
  const setNode = (next: string | null) => setParam('node', next);
  const setClear = (on: boolean) => {
    setClearRefused(undefined);
    setParam('clear', on ? 'true' : undefined);
  };
  // Refused (no message:clear on this cluster): say why (kept while the switch is off again), and read masked again.
  const refusal = clear && browse.isError ? problemOf(browse.error) : undefined;
  const refusedNow = refusal?.status === 403 ? (refusal.detail ?? refusal.title) : undefined;
  if (refusedNow && refusedNow !== clearRefused) setClearRefused(refusedNow);
  useEffect(() => {
    if (refusedNow) setParam('clear', undefined, 'replace');
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per refusal; setParam reads the current URL
  }, [refusedNow]);
  return { clearRefused, dismissRefusal: () => setClearRefused(undefined), setNode, setClear };
}
