import type { ReactNode } from 'react';
import { AdminArea } from '@/ui/shell/admin-area.tsx';

export default function AdminLayout({ children }: { children: ReactNode }) {
  return <AdminArea>{children}</AdminArea>;
}
