// What a masked value looks like: the class in words (so a reader sees what was hidden and why), or for cards and
// bank accounts every letter and digit but the last four hidden with the layout kept (•••• •••• •••• 4242).
import { CLASS_LABELS, type Action, type DataClass } from './data-classes.ts';

export function maskedText(value: string, dataClass: DataClass, action: Action): string {
  if (action === 'drop') return `[dropped ${CLASS_LABELS[dataClass]}]`;
  if (action === 'mask') return `[masked ${CLASS_LABELS[dataClass]}]`;
  let keep = 4;
  const chars = Array.from(value);
  for (let index = chars.length - 1; index >= 0; index--) {
    const character = chars[index] ?? '';
    if (!/[A-Za-z0-9]/.test(character)) continue;
    if (keep > 0) keep -= 1;
    else chars[index] = '•';
  }
  return chars.join('');
}
