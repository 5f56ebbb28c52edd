import type { ReactNode } from 'react';

/** The blank reference: nothing but what Next.js needs to serve a page. */
export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
