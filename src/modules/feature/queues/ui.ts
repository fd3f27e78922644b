// The queues module's public entry for the browser: the screens its routes render and the parts other modules'
// screens may use. Server code stays out of it, so a page never pulls the database client into its bundle.
export { DeadLettersScreen } from './ui/dead-letters.screen.tsx';
export { QueueDetailScreen } from './ui/queue-detail.screen.tsx';
export { QueuesHomeScreen } from './ui/queues-home.screen.tsx';
export { QueuesScreen } from './ui/queues.screen.tsx';
export { TargetQueuePicker } from './ui/target-queue-picker.tsx';
