// The messages module's public entry for the browser: the screen its route renders.
export { MessagesScreen } from './ui/messages.screen.tsx';
