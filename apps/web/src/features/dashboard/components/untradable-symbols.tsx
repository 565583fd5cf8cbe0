import type { UntradableSymbolsView } from '@tradebot/contract';
import { useTranslation } from '../../../lib/i18n';
import { useUntradableSymbols } from '../api/get-order-rejections';
import styles from './dashboard.module.css';

/**
 * A linked broker account's instruments the robot does not trade, and why (decision 101): a short
 * summary that opens (a native disclosure: keyboard and screen readers know it) onto the lists.
 * Nothing while loading, on an error, on the built-in platform, or when every symbol is traded.
 */
export function UntradableSymbolsList({ view }: { view: UntradableSymbolsView | undefined }) {
  const { t } = useTranslation('dashboard');
  const symbols = view?.applicable ? view.symbols : null;
  if (!symbols) return null;
  const count = symbols.unmapped.length + symbols.unconvertible.length;
  if (count === 0) return null;
  return (
    <details className={styles.untradable} data-testid="untradable-symbols">
      <summary>{t('untradable.summary', { count })}</summary>
      <SymbolGroup why={t('untradable.unmapped')} names={symbols.unmapped} />
      <SymbolGroup why={t('untradable.unconvertible')} names={symbols.unconvertible} />
    </details>
  );
}

/** One kind of untradable symbols, after why; nothing when there are none. */
function SymbolGroup({ why, names }: { why: string; names: readonly string[] }) {
  if (names.length === 0) return null;
  return (
    <div>
      <p className={styles.hint}>{why}</p>
      <ul className={styles.symbolList}>
        {names.map((name) => (
          <li key={name}>{name}</li>
        ))}
      </ul>
    </div>
  );
}

/** On the account card of a linked broker account, from GET untradable-symbols. */
export function UntradableSymbols({ linkedBroker }: { linkedBroker: boolean }) {
  const query = useUntradableSymbols(linkedBroker);
  return linkedBroker ? <UntradableSymbolsList view={query.data} /> : null;
}
