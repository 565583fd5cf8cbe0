import { promoBrokerId, promoBrokerPlaceholder } from '@tradebot/contract/constants';

/** A broker of the directory whose robotbitcoin landing the server sent (docs/decisions/074). */
export interface PromoBroker {
  segment: string;
  name: string;
}

/**
 * The broker of the landing at `segment`, as the server wrote it into the page: the server
 * answers a landing only for a broker of its directory, and puts the directory's segment and
 * name in the root's `data-broker-segment` and `data-broker`. The prerender renders the
 * template with the placeholder. Anything else (text that names no directory broker) is null:
 * the address never becomes text on the page.
 */
export function servedPromoBroker(segment: string): PromoBroker | null {
  const id = promoBrokerId(segment);
  if (id === null) return null;
  const wanted = `robotbitcoin-${id}`;
  if (typeof document === 'undefined') {
    return wanted === promoBrokerPlaceholder.segment ? { ...promoBrokerPlaceholder } : null;
  }
  const root = document.getElementById('root');
  const served = root?.dataset.brokerSegment;
  const name = root?.dataset.broker;
  return served === wanted && name ? { segment: served, name } : null;
}
