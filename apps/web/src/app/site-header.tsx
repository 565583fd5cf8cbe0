import { AppLink, NavItem } from '../components/ui/app-link';
import { useId, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Button } from '../components/ui/button';
import { LanguageSwitch } from '../components/ui/language-switch';
import { useAuthStore } from '../stores/auth';
import { useTranslation } from '../lib/i18n';
import { useHydrated } from '../lib/use-hydrated';
import { useAppStore } from '../stores/app';
import { routePath } from '../lib/route-paths';
import { logout } from './session';
import styles from './site-header.module.css';

const publicLinks = [
  { to: '/how-it-works', key: 'nav.howItWorks' },
  { to: '/searching-broker', key: 'nav.broker' },
  { to: '/asked-questions', key: 'nav.faq' },
  { to: '/promo/mesgratis', key: 'nav.freeMonth' },
] as const;

/**
 * The header: brand, navigation (behind a menu button below 64rem), the language switch,
 * and Login/Register or Dashboard/Logout.
 */
export function SiteHeader() {
  const { t } = useTranslation();
  // The prerendered header is a visitor's; what this browser stored shows once hydrated.
  const hydrated = useHydrated();
  const storedToken = useAuthStore((state) => state.token);
  const storedShowLanguageBtn = useAppStore((state) => state.showLanguageBtn);
  const token = hydrated ? storedToken : null;
  const authorized = useAuthStore((state) => state.userConfig?.authorized === true);
  // The profile opens once paid and linked; until then the personal link is account settings
  // (change the password, delete the account), which every signed-in user must reach.
  const onboarded = useAuthStore(
    (state) =>
      state.userConfig?.authorized === true &&
      state.userConfig.linked &&
      state.userConfig.login_tradear,
  );
  // A signed-in user's header carries their own pages: how it works is a visitor's explainer
  // (the footer keeps it), and the free month is for people who have not paid yet (issue 23).
  // Both trims keep every signed-in header on one row at 1280 px in es and pt.
  const links = publicLinks.filter(
    (link) =>
      !(token && link.to === '/how-it-works') &&
      !(token && authorized && link.to === '/promo/mesgratis'),
  );
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
    <header className={styles.header}>
      <div className={styles.inner}>
        <AppLink to="/" className={styles.brand}>
          <img src="/favicon.svg" alt="" width="28" height="28" />
          <span>{t('brand')}</span>
        </AppLink>
        <div className={styles.menu}>
          <Button
            color="other"
            size="sm"
            aria-expanded={open}
            aria-controls={menuId}
            leftIcon={{ name: open ? 'close' : 'menu', size: 22 }}
            label={t('nav.menu')}
            onClick={() => {
              setOpen((value) => !value);
            }}
          />
        </div>
        <nav id={menuId} className={styles.nav} data-open={open} aria-label={t('nav.main')}>
          <ul className={styles.links}>
            {links.map((link) => (
              <li key={link.to}>
                <NavItem to={link.to} className={styles.link}>
                  {t(link.key)}
                </NavItem>
              </li>
            ))}
          </ul>
          <div className={styles.account}>
            {token ? (
              <>
                <NavItem to={routePath('Dashboard')} className={styles.link}>
                  {t('nav.dashboard')}
                </NavItem>
                {onboarded ? (
                  <NavItem to="/profile-config" className={styles.link}>
                    {t('nav.profile')}
                  </NavItem>
                ) : (
                  <NavItem to={routePath('AccountSettings')} className={styles.link}>
                    {t('nav.settings')}
                  </NavItem>
                )}
                <NavItem to="/contact" className={styles.link}>
                  {t('nav.support')}
                </NavItem>
                <Button
                  color="secondary"
                  size="sm"
                  leftIcon={{ name: 'logout', size: 18 }}
                  label={t('nav.logout')}
                  disabled={leaving}
                  onClick={() => void onLogout()}
                />
              </>
            ) : (
              <>
                <NavItem to={routePath('Login')} className={styles.link}>
                  {t('nav.login')}
                </NavItem>
                <Button to={routePath('Register')} size="sm" label={t('nav.register')} />
              </>
            )}
            {showLanguageBtn && <LanguageSwitch />}
          </div>
        </nav>
      </div>
    </header>
  );
}
