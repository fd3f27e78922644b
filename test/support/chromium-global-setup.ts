// The browser project needs Chromium before any test file starts.
import { ensureChromium } from './browser.ts';

export function setup(): void {
  ensureChromium();
}
