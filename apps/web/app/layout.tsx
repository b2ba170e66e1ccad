// Global styles first: every component's own stylesheet comes after them and may refine them.
import './globals.css';
import './shared.css';
import type { Metadata, Viewport } from 'next';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { SettingsHydrator } from '../components/ui/settings-hydrator';
import { SignIn } from '../components/ui/sign-in';
import { HealthProvider } from '../hooks/use-health';
import { StatusBadge } from '../components/ui/status-badge';
import { MenuToggle } from '../components/ui/menu-toggle';
import { TopNav } from '../components/ui/top-nav';
import { ApiProvider } from '../hooks/use-api-client';
import { readWebEnv } from '../lib/env';

/** Rendered per request so LUMINA_API_URL is read at run time, not frozen into the build. */
export const dynamic = 'force-dynamic';

export const metadata: Metadata = {
  title: { default: 'Lumina', template: '%s · Lumina' },
  description: 'Answers questions over your documents, citing the exact passages.',
};

export const viewport: Viewport = {
  width: 'device-width',
  initialScale: 1,
  themeColor: [
    { media: '(prefers-color-scheme: light)', color: '#f6f6f3' },
    { media: '(prefers-color-scheme: dark)', color: '#121316' },
  ],
};

export default function RootLayout({ children }: { children: ReactNode }) {
  const { apiUrl } = readWebEnv();
  return (
    <html lang="en">
      <body>
        <ApiProvider baseUrl={apiUrl}>
          <HealthProvider>
            <SettingsHydrator />
            <a className="skip-link" href="#main">
              Skip to content
            </a>
            <header className="app-header">
              <div className="app-header-inner">
                <Link href="/" className="brand">
                  <span className="brand-mark" aria-hidden="true">
                    ◆
                  </span>
                  Lumina
                </Link>
                <TopNav />
                <div className="header-end">
                  <StatusBadge />
                  <div className="header-sign-in">
                    <SignIn />
                  </div>
                  <MenuToggle />
                </div>
              </div>
            </header>
            <main id="main" className="app-main" tabIndex={-1}>
              {children}
            </main>
          </HealthProvider>
        </ApiProvider>
      </body>
    </html>
  );
}
