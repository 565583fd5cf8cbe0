import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { NavItem } from '../../../components/ui/app-link';
import { Button } from '../../../components/ui/button';
import { LanguageSwitch } from '../../../components/ui/language-switch';
import { MessageOverlay } from '../../../components/ui/overlay';
import { PageLoader } from '../../../components/ui/page-loader';
import { useTranslation } from '../../../lib/i18n';
import { adminQueryClient } from '../api/admin-request';
import { adminLogout, useAdminMe } from '../api/session';
import { useAdminToken } from '../admin-session';
import { adminPaths } from '../admin-paths';
import styles from '../admin.module.css';

const sections = [
  { to: adminPaths.inbox, key: 'nav.inbox' },
  { to: adminPaths.users, key: 'nav.users' },
  { to: adminPaths.promoCodes, key: 'nav.promoCodes' },
  { to: adminPaths.partners, key: 'nav.partners' },
  { to: adminPaths.audit, key: 'nav.audit' },
  { to: adminPaths.system, key: 'nav.system' },
] as const;

/**
 * The support console's shell (docs/decisions/057): its own header and navigation, its own
 * session and server state. Without a signed-in admin every screen but the sign-in sends there.
 */
export default function AdminLayout() {
  const token = useAdminToken();
  const { pathname } = useLocation();
  const onLogin = pathname === adminPaths.login;
  if (!token && !onLogin) return <Navigate to={adminPaths.login} replace />;
  if (token && onLogin) return <Navigate to={adminPaths.inbox} replace />;
  return (
    <QueryClientProvider client={adminQueryClient}>
      {onLogin ? <Outlet /> : <ConsoleShell />}
      <MessageOverlay />
    </QueryClientProvider>
  );
}

function ConsoleShell() {
  const { t } = useTranslation('admin');
  const me = useAdminMe(true);
  const navigate = useNavigate();
  const [leaving, setLeaving] = useState(false);

  const signOut = async () => {
    setLeaving(true);
    try {
      await adminLogout();
    } catch {
      // The session is ended here whatever the server said.
    }
    await navigate(adminPaths.login);
  };

  return (
    <div className={styles.shell}>
      <header className={styles.header}>
        <div className={styles.headerInner}>
          <p className={styles.brand}>
            <img src="/favicon.svg" alt="" width="28" height="28" />
            {t('brand')}
          </p>
          <nav className={styles.nav} aria-label={t('nav.label')}>
            <ul>
              {sections.map((section) => (
                <li key={section.to}>
                  <NavItem to={section.to}>{t(section.key)}</NavItem>
                </li>
              ))}
            </ul>
          </nav>
          <div className={styles.account}>
            {me.data && <span>{t('signedInAs', { name: me.data.admin.name })}</span>}
            <LanguageSwitch />
            <Button
              size="sm"
              color="secondary"
              label={t('signOut')}
              loading={leaving}
              onClick={() => void signOut()}
            />
          </div>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {me.isPending ? <PageLoader /> : <Outlet />}
      </main>
    </div>
  );
}
