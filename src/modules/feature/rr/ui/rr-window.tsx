'use client';
// The window a screen reads over (15m … 7d), kept in the URL as `window` (left out at its default). A change starts
// the lists of the page again at their first page.
import { SegmentedControl } from '@mantine/core';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { DEFAULT_WINDOW, WINDOWS, type RrWindow } from './rr-paths.ts';

export function useRrWindow(): { window: RrWindow; setWindow: (value: string) => void } {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const asked = params.get('window');
  const window = WINDOWS.find((name) => name === asked) ?? DEFAULT_WINDOW;
  const setWindow = (value: string) => {
    const next = new URLSearchParams(params.toString());
    if (value === DEFAULT_WINDOW) next.delete('window');
    else next.set('window', value);
    for (const key of [...next.keys()]) if (key === 'page' || key.endsWith('.page')) next.delete(key);
    const query = next.toString();
    router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
  };
  return { window, setWindow };
}

export function WindowPicker({ value, onChange }: { value: RrWindow; onChange: (value: string) => void }) {
  return <SegmentedControl size="xs" data={[...WINDOWS]} value={value} onChange={onChange} aria-label="Window" />;
}
