import { AdminHome } from '@/ui/shell/admin-area.tsx';

export default function AdminPage() {
  return <AdminHome />;
}
