'use client';
// The palette's highlighted option. It is kept as the item's key rather than its index, so it stays on the same item
// while late answers arrive; when that item is gone it falls back to the first. The input names it to assistive
// technology through `aria-activedescendant` (the option ids below), and it is scrolled into view as it moves.
import { useEffect, useState } from 'react';
import type { PaletteItem } from '../slots/palette-search-types.ts';

export function usePaletteHighlight(items: readonly PaletteItem[], baseId: string) {
  const [activeKey, setActiveKey] = useState<string>();
  const activeIndex = Math.max(
    0,
    items.findIndex((item) => item.key === activeKey),
  );
  const active = items[activeIndex];
  const optionId = (index: number) => `${baseId}-option-${index}`;
  const activeId = active ? optionId(activeIndex) : undefined;
  useEffect(() => {
    if (activeId) document.getElementById(activeId)?.scrollIntoView({ block: 'nearest' });
  }, [activeId]);

  /** One option down (1) or up (-1), wrapping around at either end. */
  const move = (step: number) => {
    const next = items[(activeIndex + step + items.length) % items.length];
    if (next) setActiveKey(next.key);
  };
  /** Back to the first option, when the text changes. */
  const reset = () => setActiveKey(undefined);
  return { active, activeIndex, activeId, optionId, move, reset };
}
