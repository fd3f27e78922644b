import { HomeScreen } from '@/ui/home/home.screen.tsx';

export default function HomePage() {
  return <HomeScreen />;
}
