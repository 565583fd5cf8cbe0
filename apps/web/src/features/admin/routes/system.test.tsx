import type { AdminSystem, Language } from '@tradebot/contract';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { changeLanguage, loadNamespaces } from '../../../lib/i18n';
import { SystemView } from './system';

// Decision 160: the console's system page.
const scaled: AdminSystem = {
  mode: 'scaled',
  checkedAt: '2026-11-29T12:00:00.000Z',
  unheldAccounts: 3,
  processes: [
    {
      process: 'web-1:101:aaaa1111',
      self: true,
      accounts: 1200,
      tickLagMs: 12,
      leaseMoves: { claimed: 4, lost: 0, released: 1 },
      reportedAt: '2026-11-29T12:00:00.000Z',
      errors: [],
    },
    {
      process: 'web-2:202:bbbb2222',
      self: false,
      accounts: 1180,
      tickLagMs: 2400,
      leaseMoves: { claimed: 1, lost: 2, released: 0 },
      reportedAt: '2026-11-29T11:59:50.000Z',
      errors: [{ at: '2026-11-29T11:58:00.000Z', message: 'robot: the worker failed' }],
    },
    {
      process: 'web-3:303:cccc3333',
      self: false,
      accounts: 0,
      tickLagMs: null,
      leaseMoves: { claimed: 0, lost: 0, released: 0 },
      reportedAt: null,
      errors: [],
    },
  ],
};

async function render(language: Language, system: AdminSystem): Promise<string> {
  await changeLanguage(language);
  return renderToStaticMarkup(<SystemView system={system} />).replace(/\s/g, ' ');
}

beforeAll(async () => {
  await loadNamespaces(['admin']);
});

describe('SystemView', () => {
  it('shows each process with its accounts, tick lag, lease moves and last errors (es)', async () => {
    const html = await render('es', scaled);
    expect(html).toContain('Modo escalado');
    expect(html).toContain('3 cuentas no las tiene ningún proceso ahora.');
    expect(html).toContain('web-1:101:aaaa1111');
    expect(html).toContain('Este proceso');
    // Spanish groups no four-digit number (1200), Portuguese does (1.200).
    expect(html).toMatch(/>1[.]?200</);
    expect(html).toContain('12 ms');
    // A late tick says so in words, not only in colour.
    expect(html).toMatch(/2400 ms <span[^>]*>Atrasado</);
    expect(html).toContain('4 tomadas, 0 perdidas, 1 cedidas');
    expect(html).toContain('robot: the worker failed');
    // A process alive that has not reported yet has no figures, rather than zeros.
    expect(html).toContain('Sin informe todavía');
    expect(html).toContain('Ninguno');
  });

  it('speaks Portuguese, and says when no process runs the robot', async () => {
    const html = await render('pt', scaled);
    expect(html).toContain('Modo escalado');
    expect(html).toContain('3 contas não estão com nenhum processo agora.');
    expect(html).toContain('1 assumidas, 2 perdidas, 0 cedidas');
    const empty = await render('pt', {
      ...scaled,
      mode: 'embedded',
      processes: [],
      unheldAccounts: 0,
    });
    expect(empty).toContain('Modo integrado');
    expect(empty).toContain('Nenhum processo faz o robô funcionar agora.');
    expect(empty).not.toContain('<table');
  });
});
