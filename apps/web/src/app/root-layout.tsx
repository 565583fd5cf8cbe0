import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router';
import { LanguageSwitch } from '../components/ui/language-switch';

export function RootLayout() {
  const { t } = useTranslation();
  return (
    <>
      <a className="skip-link" href="#main">
        {t('nav.skipToContent')}
      </a>
      <header className="site-header">
        <nav className="site-header__inner" aria-label={t('nav.main')}>
          <Link to="/" className="brand">
            <img src="/favicon.svg" alt="" width="28" height="28" />
            <span>{t('brand')}</span>
          </Link>
          <LanguageSwitch />
        </nav>
      </header>
      <main id="main" className="site-main" tabIndex={-1}>
        <Outlet />
      </main>
      <footer className="site-footer">
        <p>{t('footer.riskShort')}</p>
        <p>{t('footer.rights', { year: new Date().getFullYear() })}</p>
      </footer>
    </>
  );
}
