import { IconDatabaseSearch } from '@tabler/icons-react';
import { defineModuleUi } from '@/ui/slots/contribution-types.ts';
import { useSavedQueryPaletteSearch } from './saved-query-palette-search.ts';

export const sqlUi = defineModuleUi({
  moduleId: 'sql',
  routes: ['/sql', '/clusters/{clusterId}/sql'],
  navigation: [{ group: 'messaging', label: 'SQL console', href: '/sql', icon: IconDatabaseSearch, order: 30 }],
  contributions: [
    {
      slot: 'palette.search',
      id: 'saved-queries',
      order: 40,
      title: 'Saved queries',
      useSearch: useSavedQueryPaletteSearch,
    },
  ],
});
