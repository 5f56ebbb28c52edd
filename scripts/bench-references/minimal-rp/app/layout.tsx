import type { ReactNode } from 'react';

/** The minimal relying party: the same verification as the app, with the same core, and nothing else. */
export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
