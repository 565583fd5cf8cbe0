import { useEffect } from 'react';
import { useRouteError } from 'react-router';
import { StatusPage } from '../components/status-page';
import { Button } from '../components/ui/button';
import { useTranslation } from '../lib/i18n';
import { RootLayout } from './root-layout';

/**
 * spec §2: router errors are swallowed. They are logged for developers, and the user
 * sees the page shell with a short note and a way on, never a crash screen.
 */
function useLoggedRouteError() {
  const error = useRouteError();
  useEffect(() => {
    console.error('[router]', error);
  }, [error]);
}

function ErrorNote() {
  const { t } = useTranslation();
  return (
    // A full load of the home page: the router that failed is not trusted to navigate.
    <StatusPage
      titleId="route-error-title"
      title={t('routeError.title')}
      text={t('routeError.text')}
      action={<Button href="/" label={t('notFound.back')} />}
    />
  );
}

/** Inside the layout: the header and footer stay. */
export function PageError() {
  useLoggedRouteError();
  return <ErrorNote />;
}

/** When the layout itself failed: render it again around the note. */
export function ShellError() {
  useLoggedRouteError();
  return (
    <RootLayout>
      <ErrorNote />
    </RootLayout>
  );
}
