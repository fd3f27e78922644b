// The scrape's three tiers (docs/scrape.md): A reads HA state, B the first queue page, C every queue page.
export type Tier = 'A' | 'B' | 'C';
export const TIERS: readonly Tier[] = ['A', 'B', 'C'];
