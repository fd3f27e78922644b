'use client';
// The open operation of the queue page lives in the URL (`?operate=purge`): read it, and open or close one by
// replacing the URL (no history entry per dialog).
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { isOperation, type OperationId } from './queue-operation-ids.ts';

export function useOperateParam() {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const requested = params.get('operate');
  const operation = isOperation(requested) ? requested : undefined;
  const open = (next: OperationId | undefined) => {
    const query = new URLSearchParams(params.toString());
    if (next) query.set('operate', next);
    else query.delete('operate');
    const search = query.toString();
    router.replace(search ? `${pathname}?${search}` : pathname, { scroll: false });
  };
  return { operation, open };
}
