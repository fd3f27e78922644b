import '@mantine/core/styles.css';
import { ColorSchemeScript, mantineHtmlProps } from '@mantine/core';
import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { Providers } from '@/ui/providers.tsx';

// No title here: every page names its tab itself (PageHeader, AuthCard, the sign-in screen render a <title>), and
// a title in the metadata would come first in the head and win over theirs.
export const metadata: Metadata = {
  description: 'Run whole fleets of Apache ActiveMQ Artemis clusters: see every node, understand it, change it safely.',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" {...mantineHtmlProps}>
      <head>
        {/* Sets the colour scheme before the first paint, so a dark-theme viewer never sees a white flash. */}
        <ColorSchemeScript defaultColorScheme="auto" />
      </head>
      <body>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
