// Which item of a list has its drawer open, kept in the URL (`?open=<id>`) beside the list's own state: a link to
// the screen with it opens the drawer, and back closes it. Opening and closing leave the list's page, sort and
// filters as they are (useListState's filters would start the list again at page 1).
'use client';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useCallback } from 'react';

const OPENED_PARAM = 'open';

export function useOpenedItem(): {
  readonly openedId: string | undefined;
  readonly open: (id: string) => void;
  readonly close: () => void;
} {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const navigate = useCallback(
    (id: string | undefined) => {
      const next = new URLSearchParams(params.toString());
      if (id === undefined) next.delete(OPENED_PARAM);
      else next.set(OPENED_PARAM, id);
      const query = next.toString();
      router.push(query ? `${pathname}?${query}` : pathname, { scroll: false });
    },
    [params, pathname, router],
  );
  return {
    openedId: params.get(OPENED_PARAM) ?? undefined,
    open: useCallback((id: string) => navigate(id), [navigate]),
    close: useCallback(() => navigate(undefined), [navigate]),
  };
}
