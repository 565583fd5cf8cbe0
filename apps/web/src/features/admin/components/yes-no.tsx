import { Badge } from '../../../components/ui/badge';
import { useTranslation } from '../../../lib/i18n';

/** A yes/no state in words, with a tone that repeats it. */
export function YesNo({ value, yes, no }: { value: boolean; yes: string; no: string }) {
  return <Badge tone={value ? 'positive' : 'neutral'}>{value ? yes : no}</Badge>;
}

/** Paid, linked, robot on: the three states support asks about first. */
export function UserStates({
  authorized,
  linked,
  botOn,
}: {
  authorized: boolean;
  linked: boolean;
  botOn: boolean;
}) {
  const { t } = useTranslation('admin');
  return (
    <>
      <YesNo value={authorized} yes={t('users.paid')} no={t('users.notPaid')} />{' '}
      <YesNo value={linked} yes={t('users.linked')} no={t('users.notLinked')} />{' '}
      <YesNo value={botOn} yes={t('users.robotOn')} no={t('users.robotOff')} />
    </>
  );
}
