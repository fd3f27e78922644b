// Any other path inside the console: the shell's feature gate explains a disabled module's path first.
import { NotFoundScreen } from '@/ui/shell/not-found.screen.tsx';

export default function UnknownPage() {
  return <NotFoundScreen />;
}
