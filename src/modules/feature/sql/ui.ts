// The sql module's public entry for the browser: the screens its routes render. Server code stays out of it, so a page
// never pulls the database client into its bundle.
export { SqlConsoleScreen } from './ui/sql-console.screen.tsx';
export { SqlHomeScreen } from './ui/sql-home.screen.tsx';
export { SqlSubscriptionsScreen } from './ui/subscriptions.screen.tsx';
