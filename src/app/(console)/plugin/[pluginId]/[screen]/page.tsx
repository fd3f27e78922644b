import { PluginScreenPage } from '@/ui/slots/plugin-screen.tsx';

// A runtime plugin's screen: the plugin and the screen come from the path, the screen itself from the plugin's bundle.
export default async function PluginScreenRoute({ params }: { params: Promise<{ pluginId: string; screen: string }> }) {
  const { pluginId, screen } = await params;
  return <PluginScreenPage pluginId={pluginId} name={screen} />;
}
