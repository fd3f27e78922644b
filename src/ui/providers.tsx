'use client';
// Everything a console page needs around it: theme, TanStack Query and the typed tRPC client.
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { createConsoleQueryClient } from './data/query-client.ts';
import { createConsoleTrpcClient, TRPCProvider } from './data/trpc.ts';
import { consoleTheme } from './theme.ts';

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createConsoleQueryClient);
  const [trpcClient] = useState(createConsoleTrpcClient);
  return (
    <MantineProvider theme={consoleTheme} defaultColorScheme="auto">
      <QueryClientProvider client={queryClient}>
        <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
          {children}
        </TRPCProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
