import type { AdminMessageSummary } from '@tradebot/contract';
import { Badge } from '../../../components/ui/badge';
import { useTranslation } from '../../../lib/i18n';

/** A message's status in words; an overdue one says so, not by colour alone. */
export function MessageStatusBadge({
  message,
}: {
  message: Pick<AdminMessageSummary, 'status' | 'overdue'>;
}) {
  const { t } = useTranslation('admin');
  if (message.overdue) return <Badge tone="negative">{t('inbox.overdue')}</Badge>;
  const tone =
    message.status === 'open' ? 'warning' : message.status === 'answered' ? 'positive' : 'neutral';
  return <Badge tone={tone}>{t(`inbox.status.${message.status}`)}</Badge>;
}
