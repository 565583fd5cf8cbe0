import { useEffect } from 'react';
import { useRouteError } from 'react-router';
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
    <section className="not-found" aria-labelledby="route-error-title">
      <h1 id="route-error-title">{t('routeError.title')}</h1>
      <p>{t('routeError.text')}</p>
      <a className="button button--primary button--md" href="/">
        {t('notFound.back')}
      </a>
    </section>
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
