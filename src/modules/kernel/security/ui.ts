// The security module's public entry for the browser: the screens its routes render and the parts other modules'
// screens may use. Server code stays out of it, so a page never pulls the database client into its bundle.
export { AccountScreen } from './ui/account.screen.tsx';
export { ChangePasswordScreen } from './ui/change-password.screen.tsx';
export { GrantsScreen } from './ui/grants.screen.tsx';
export { RolesScreen } from './ui/roles.screen.tsx';
export { SignInScreen } from './ui/sign-in.screen.tsx';
export { UsersScreen } from './ui/users.screen.tsx';
