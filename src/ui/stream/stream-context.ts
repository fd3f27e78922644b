import { createContext, useContext } from 'react';
import type { StreamStatus } from './stream-connection.ts';

export interface StreamContextValue {
  readonly clusterId: string;
  readonly topics: readonly string[];
  readonly status: StreamStatus;
}

export const StreamContext = createContext<StreamContextValue | undefined>(undefined);

export function useStreamStatus(): StreamContextValue | undefined {
  return useContext(StreamContext);
}
