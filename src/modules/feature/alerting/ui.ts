// The alerting module's public entry for the browser: the screens its routes render.
export { AlertHistoryScreen, AlertsScreen } from './ui/alerts.screen.tsx';
export { ChannelsScreen } from './ui/channels.screen.tsx';
export { EditRuleScreen, NewRuleScreen } from './ui/rule-editor.screen.tsx';
export { RulesScreen } from './ui/rules.screen.tsx';
