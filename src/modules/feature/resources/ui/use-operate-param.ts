// The page's `?operate=` value and a way to set or clear it: a row menu links to the address or connection page
// with it, and the page opens the operation's dialog.
import { usePathname, useRouter, useSearchParams } from 'next/navigation';

export function useOperateParam(): [string | null, (next: string | undefined) => void] {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const set = (next: string | undefined) => {
    const query = new URLSearchParams(params.toString());
    if (next) query.set('operate', next);
    else query.delete('operate');
    const search = query.toString();
    router.replace(search ? `${pathname}?${search}` : pathname, { scroll: false });
  };
  return [params.get('operate'), set];
}
