import { AppLink } from '../components/ui/app-link';
import type { ReactNode } from 'react';
import { Outlet } from 'react-router';
import { MessageOverlay } from '../components/ui/overlay';
import { NavigationLoader } from '../components/ui/page-loader';
import { useTranslation } from '../lib/i18n';
import { ScrollManager } from './scroll-manager';
import { SiteHeader } from './site-header';

/** spec §2 Root shell: header, the routed view, footer, the message overlay, the loader. */
export function RootLayout({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <>
      <a className="skip-link" href="#main">
        {t('nav.skipToContent')}
      </a>
      <SiteHeader />
      <main id="main" className="site-main" tabIndex={-1}>
        {children ?? <Outlet />}
      </main>
      <footer className="site-footer">
        <nav aria-label={t('footer.nav')}>
          <ul className="site-footer__links">
            <li>
              <AppLink to="/terms-and-conditions">{t('footer.terms')}</AppLink>
            </li>
            <li>
              <AppLink to="/privacy-policy">{t('footer.privacy')}</AppLink>
            </li>
            <li>
              <AppLink to="/asked-questions">{t('nav.faq')}</AppLink>
            </li>
            <li>
              <AppLink to="/contact">{t('footer.contact')}</AppLink>
            </li>
          </ul>
        </nav>
        <p>{t('footer.riskShort')}</p>
        <p>{t('footer.rights', { year: new Date().getFullYear() })}</p>
      </footer>
      <MessageOverlay />
      <NavigationLoader />
      <ScrollManager />
    </>
  );
}
