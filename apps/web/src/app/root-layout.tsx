import { AppLink } from '../components/ui/app-link';
import { useEffect, type ReactNode } from 'react';
import { Outlet, useLocation } from 'react-router';
import { SupportEmail } from '../components/support-email';
import { OperatorIdentity } from '../components/operator-identity';
import { MessageOverlay } from '../components/ui/overlay';
import { NavigationLoader } from '../components/ui/page-loader';
import { useTranslation } from '../lib/i18n';
import { useLearnCountry } from '../lib/number-locale';
import { applyPageHead, pageHead } from './page-head';
import { ScrollManager } from './scroll-manager';
import { SiteHeader } from './site-header';
import styles from './root-layout.module.css';

/** Keeps the title, description and language links in step with the route (page-head.ts). */
function DocumentHead() {
  const { pathname } = useLocation();
  const { t, language } = useTranslation();
  useEffect(() => {
    applyPageHead(pageHead(pathname, language, t, __SITE__.publicUrl));
  }, [pathname, language, t]);
  return null;
}

/** spec §2 Root shell: header, the routed view, footer, the message overlay, the loader. */
export function RootLayout({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  // Numbers and money follow the reader's country (decision 089), learned once per browser.
  useLearnCountry();
  return (
    <>
      <a className={styles.skipLink} href="#main">
        {t('nav.skipToContent')}
      </a>
      <SiteHeader />
      <main id="main" className={styles.main} tabIndex={-1}>
        {children ?? <Outlet />}
      </main>
      <footer className={styles.footer}>
        <div className={styles.footerInner}>
          <nav aria-label={t('footer.nav')}>
            <ul className={styles.footerLinks}>
              <li>
                <AppLink to="/terms-and-conditions">{t('footer.terms')}</AppLink>
              </li>
              <li>
                <AppLink to="/privacy-policy">{t('footer.privacy')}</AppLink>
              </li>
              <li>
                <AppLink to="/how-it-works">{t('nav.howItWorks')}</AppLink>
              </li>
              <li>
                <AppLink to="/asked-questions">{t('nav.faq')}</AppLink>
              </li>
              <li>
                <AppLink to="/track-record">{t('footer.trackRecord')}</AppLink>
              </li>
              <li>
                <AppLink to="/contact">{t('footer.contact')}</AppLink>
              </li>
            </ul>
          </nav>
          <p>{t('footer.riskShort')}</p>
          <SupportEmail />
          <OperatorIdentity headingLevel="p" />
          {/* The build's year: the prerendered page and the hydrating client agree on it. */}
          <p className={styles.rights}>{t('footer.rights', { year: __BUILD_YEAR__ })}</p>
        </div>
      </footer>
      <MessageOverlay />
      <NavigationLoader />
      <ScrollManager />
      <DocumentHead />
    </>
  );
}
