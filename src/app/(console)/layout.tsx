// Every console page sits in the shell; a sign-in page will live outside this group.
import type { ReactNode } from 'react';
import { ConsoleShell } from '@/ui/shell/console-shell.tsx';

export default function ConsoleLayout({ children }: { children: ReactNode }) {
  return <ConsoleShell>{children}</ConsoleShell>;
}
