import { useState, type SubmitEvent } from 'react';
import { useSearchParams } from 'react-router';
import { AppLink } from '../../../components/ui/app-link';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { TextField } from '../../../components/ui/form-field';
import { Page } from '../../../components/ui/page';
import { Table } from '../../../components/ui/table';
import { formatDateTime } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { useUserSearch } from '../api/users';
import { QueryState } from '../components/query-state';
import { UserStates } from '../components/yes-no';
import { adminPaths } from '../admin-paths';
import styles from '../admin.module.css';

/** Users by e-mail or name (the query stays in the address, so the back button keeps it). */
export default function UsersRoute() {
  const { t, language } = useTranslation('admin');
  const [params, setParams] = useSearchParams();
  const query = (params.get('q') ?? '').trim();
  const [text, setText] = useState(query);
  const [tooShort, setTooShort] = useState(false);
  const results = useUserSearch(query);

  const onSearch = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = text.trim();
    setTooShort(trimmed.length < 2);
    if (trimmed.length < 2) return;
    setParams({ q: trimmed }, { replace: true });
  };

  return (
    <Page title={t('users.title')} intro={t('users.intro')} width="wide">
      <Card title={t('users.searchTitle')} titleId="users-search">
        <form noValidate role="search" className={styles.formRow} onSubmit={onSearch}>
          <TextField
            name="q"
            type="search"
            label={t('users.search')}
            value={text}
            onChange={(event) => {
              setText(event.target.value);
            }}
            error={tooShort ? { key: 'contract:validation.min', count: 2 } : undefined}
          />
          <Button type="submit" label={t('users.searchButton')} loading={results.isFetching} />
        </form>
      </Card>
      {query.length >= 2 && (
        <Card title={t('users.resultsTitle')} titleId="users-results">
          <QueryState query={results}>
            {(data) =>
              data.users.length === 0 ? (
                <p className={styles.muted}>{t('users.none', { query })}</p>
              ) : (
                <>
                  <Table
                    caption={t('users.resultsTitle')}
                    captionHidden
                    columns={[
                      t('users.name'),
                      t('users.email'),
                      t('users.state'),
                      t('users.registered'),
                    ]}
                  >
                    {data.users.map((user) => (
                      <tr key={user.id}>
                        <td>
                          <AppLink to={`${adminPaths.users}/${user.id}`}>
                            {user.name} {user.last_name}
                          </AppLink>
                        </td>
                        <td>{user.email}</td>
                        <td>
                          <UserStates
                            authorized={user.authorized}
                            linked={user.linked}
                            botOn={user.bot_on}
                          />
                        </td>
                        <td>{formatDateTime(language, user.createdAt)}</td>
                      </tr>
                    ))}
                  </Table>
                  {data.more && <p className={styles.muted}>{t('users.more')}</p>}
                </>
              )
            }
          </QueryState>
        </Card>
      )}
    </Page>
  );
}
