import { redirect } from 'next/navigation';

export default function AccessPage() {
  redirect('/admin/access/users');
}
