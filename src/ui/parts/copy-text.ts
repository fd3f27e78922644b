// Copies text for a menu item or button. The Clipboard API exists only in secure contexts (https, localhost); on a
// console opened over plain http on another host the text is offered in a prompt, selected, for the viewer to copy.
export async function copyText(text: string): Promise<void> {
  if ('clipboard' in navigator) await navigator.clipboard.writeText(text);
  else window.prompt('Copy with Ctrl+C (⌘C), then close:', text);
}
