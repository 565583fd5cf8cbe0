import { AppLink, NavItem } from '../components/ui/app-link';
import { useId, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Icon } from '../components/ui/icon';
import { LanguageSwitch } from '../components/ui/language-switch';
import { useAuthStore } from '../stores/auth';
import { useTranslation } from '../lib/i18n';
import { useHydrated } from '../lib/use-hydrated';
import { useAppStore } from '../stores/app';
import { routePath } from '../lib/route-paths';
import { logout } from './session';

const publicLinks = [
  { to: '/how-it-works', key: 'nav.howItWorks' },
  { to: '/searching-broker', key: 'nav.broker' },
  { to: '/asked-questions', key: 'nav.faq' },
  { to: '/promo/mesgratis', key: 'nav.freeMonth' },
] as const;

/**
 * The header: brand, navigation (behind a menu button below 48rem), the language switch,
 * and Login/Register or Dashboard/Logout.
 */
export function SiteHeader() {
  const { t } = useTranslation();
  // The prerendered header is a visitor's; what this browser stored shows once hydrated.
  const hydrated = useHydrated();
  const storedToken = useAuthStore((state) => state.token);
  const storedShowLanguageBtn = useAppStore((state) => state.showLanguageBtn);
  const token = hydrated ? storedToken : null;
  const showLanguageBtn = hydrated ? storedShowLanguageBtn : true;
  const [open, setOpen] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const menuId = useId();
  const location = useLocation();
  const navigate = useNavigate();

  // Any navigation closes the menu (state adjusted while rendering, not in an effect).
  const [menuPath, setMenuPath] = useState(location.pathname);
  if (menuPath !== location.pathname) {
    setMenuPath(location.pathname);
    setOpen(false);
  }

  const onLogout = async () => {
    setLeaving(true);
    await logout();
    setLeaving(false);
    await navigate(routePath('Home'));
  };

  return (
    <header className="site-header">
      <div className="site-header__inner">
        <AppLink to="/" className="brand">
          <img src="/favicon.svg" alt="" width="28" height="28" />
          <span>{t('brand')}</span>
        </AppLink>
        <button
          type="button"
          className="menu-button"
          aria-expanded={open}
          aria-controls={menuId}
          onClick={() => {
            setOpen((value) => !value);
          }}
        >
          <Icon name={open ? 'close' : 'menu'} size={22} />
          <span>{t('nav.menu')}</span>
        </button>
        <nav
          id={menuId}
          className={`site-nav${open ? ' site-nav--open' : ''}`}
          aria-label={t('nav.main')}
        >
          <ul className="site-nav__links">
            {publicLinks.map((link) => (
              <li key={link.to}>
                <NavItem to={link.to}>{t(link.key)}</NavItem>
              </li>
            ))}
          </ul>
          <div className="site-nav__account">
            {token ? (
              <>
                <NavItem to={routePath('Dashboard')} className="site-nav__plain">
                  {t('nav.dashboard')}
                </NavItem>
                <button
                  type="button"
                  className="button button--secondary button--sm"
                  disabled={leaving}
                  onClick={() => void onLogout()}
                >
                  <Icon name="logout" size={18} />
                  {t('nav.logout')}
                </button>
              </>
            ) : (
              <>
                <NavItem to={routePath('Login')} className="site-nav__plain">
                  {t('nav.login')}
                </NavItem>
                <AppLink to={routePath('Register')} className="button button--primary button--sm">
                  {t('nav.register')}
                </AppLink>
              </>
            )}
            {showLanguageBtn && <LanguageSwitch />}
          </div>
        </nav>
      </div>
    </header>
  );
}
