// The shell reads GET /api/v1/manifest (what is installed and on); every part of the console filters by it.
import { useQuery } from '@tanstack/react-query';
import type { Manifest } from '@/modules/kernel/plugin/index.ts';
import { fetchJson } from './problem.ts';

export type { Manifest };
export type ManifestModule = Manifest['modules'][number];

const MANIFEST_QUERY_KEY = ['rest', 'manifest'] as const;

export function useManifest() {
  // The manifest changes only with a restart; after one, the stream resumes and every query refetches.
  return useQuery({
    queryKey: MANIFEST_QUERY_KEY,
    queryFn: () => fetchJson<Manifest>('/api/v1/manifest'),
    staleTime: 60_000,
  });
}
