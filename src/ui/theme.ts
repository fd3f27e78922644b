import { Badge, createTheme } from '@mantine/core';

// No web fonts (the network is closed and they slow the first paint): the operating system's own UI font.
const SYSTEM_FONTS =
  'system-ui, -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';

export const consoleTheme = createTheme({
  fontFamily: SYSTEM_FONTS,
  headings: { fontFamily: SYSTEM_FONTS },
  fontFamilyMonospace: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
  primaryColor: 'indigo',
  defaultRadius: 'sm',
  // The focus ring shows for keyboard users on every interactive element, never for mouse clicks.
  focusRing: 'auto',
  components: {
    // A status badge in a narrow table column must stay whole ("DEGRADED", not "DE…"): it never shrinks below
    // its text; the table scrolls sideways inside its frame instead.
    Badge: Badge.extend({ styles: { root: { minWidth: 'max-content' } } }),
  },
});
