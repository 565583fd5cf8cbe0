import { MutationObserver, QueryClient } from '@tanstack/react-query';
import type { Language, RobotSettingsView } from '@tradebot/contract';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { changeLanguage, loadNamespaces } from '../../../lib/i18n';
import { liveTradingKey, mergeLive, type LiveTrading } from '../../../lib/live-trading';
import { settingsMutation } from '../../../lib/update-settings';
import { RobotState } from './robot-state';

/**
 * Issue 39 point 2: "Encender el robot" on the dashboard left "Estado del robot: Apagado" until
 * the next real-time event. The settings' answer now switches the robot's state at once.
 */
const settings = (bot_on: boolean): RobotSettingsView => ({
  bot_on,
  risk: 1,
  categories_enabled: {
    all: true,
    forex: true,
    cripto: true,
    stocks: true,
    index: true,
    commodities: true,
  },
});

async function save(client: QueryClient, saved: RobotSettingsView): Promise<void> {
  vi.stubGlobal(
    'fetch',
    vi.fn(() => Promise.resolve(new Response(JSON.stringify({ data: saved })))),
  );
  await new MutationObserver(client, settingsMutation(client)).mutate(saved);
}

async function robotText(language: Language, client: QueryClient): Promise<string> {
  await changeLanguage(language);
  const robot = client.getQueryData<LiveTrading>(liveTradingKey)?.robot ?? null;
  return renderToStaticMarkup(
    <MemoryRouter>
      <RobotState robot={robot} />
    </MemoryRouter>,
  );
}

beforeAll(async () => {
  await loadNamespaces(['dashboard']);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the robot state after the switch', () => {
  it.each([
    ['es', 'Encendido', 'Apagado'],
    ['pt', 'Ligado', 'Desligado'],
  ] as const)('in %s: says on as soon as the settings are saved, and off again', async (...row) => {
    const [language, on, off] = row;
    const client = new QueryClient();
    client.setQueryData(
      liveTradingKey,
      mergeLive(undefined, { robot: { bot_on: false, trading: false, idleReason: 'ROBOT_OFF' } }),
    );
    expect(await robotText(language, client)).toContain(`>${off}<`);

    await save(client, settings(true));
    const switchedOn = await robotText(language, client);
    expect(switchedOn).toContain(`>${on}<`);
    expect(switchedOn).not.toContain(`>${off}<`);
    expect(client.getQueryData<LiveTrading>(liveTradingKey)?.robot).toMatchObject({
      bot_on: true,
      idleReason: null,
    });

    await save(client, settings(false));
    expect(await robotText(language, client)).toContain(`>${off}<`);
  });

  it('keeps a reason of its own when switched on (the refetch tells the rest)', async () => {
    const client = new QueryClient();
    client.setQueryData(
      liveTradingKey,
      mergeLive(undefined, {
        robot: { bot_on: true, trading: false, idleReason: 'MARKET_CLOSED' },
      }),
    );
    await save(client, settings(true));
    expect(client.getQueryData<LiveTrading>(liveTradingKey)?.robot?.idleReason).toBe(
      'MARKET_CLOSED',
    );
  });
});
