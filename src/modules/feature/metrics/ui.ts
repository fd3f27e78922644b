// The metrics module's public entry for the browser: the screens its routes render.
export { ConsumerHealthScreen } from './ui/consumer-health.screen.tsx';
