// What a module that stores governed content contributes: how many of its stored rows were masked by a policy
// version older than the one in force (the remask progress), and a bounded batch that rewrites some of them.
import type { Database } from '@/base/db/database.ts';

interface StoredContent {
  readonly title: string;
  remaining(db: Database, version: number): Promise<number>;
}

export interface StoredContentDeclaration {
  readonly id: string;
  readonly load: () => Promise<StoredContent>;
}
