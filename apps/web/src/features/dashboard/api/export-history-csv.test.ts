import { afterEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../../../lib/i18n';
import { historyCsvPath } from './export-history-csv';

describe('the history CSV asked for this reader (decision 154)', () => {
  afterEach(async () => {
    vi.restoreAllMocks();
    await changeLanguage('es');
  });

  it('asks in the page’s language and the browser’s zone', async () => {
    vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockReturnValue({
      timeZone: 'America/Sao_Paulo',
    } as Intl.ResolvedDateTimeFormatOptions);
    await changeLanguage('pt');
    const query = new URL(historyCsvPath('week'), 'http://x').searchParams;
    expect(Object.fromEntries(query)).toEqual({
      period: 'week',
      language: 'pt',
      time_zone: 'America/Sao_Paulo',
    });
  });

  it('leaves the zone out where the browser does not say it', async () => {
    vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockReturnValue({
      timeZone: '',
    } as Intl.ResolvedDateTimeFormatOptions);
    await changeLanguage('es');
    const query = new URL(historyCsvPath('all'), 'http://x').searchParams;
    expect(Object.fromEntries(query)).toEqual({ period: 'all', language: 'es' });
  });
});
