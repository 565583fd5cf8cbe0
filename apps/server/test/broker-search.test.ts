import { describe, expect, it } from 'vitest';
import exampleDirectory from '../brokers/example-directory.json';
import { brokers } from '../src/db/schema';
import { v1 } from './helpers/accounts';
import { useTestApp } from './helpers/app';

interface Found {
  id: string;
  builtIn: boolean;
  example: boolean;
  minDeposit: number;
}

const answers = {
  country: 'AR',
  markets: ['stocks'],
  deposit: 1000,
  experience: 'none',
  platform: 'any',
  regulated_only: true,
  robot_only: false,
};

describe('broker search', () => {
  const context = useTestApp();
  const search = (payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
    context.app.inject({ method: 'POST', url: `${v1}/broker-search`, payload, headers });
  const found = async (payload: Record<string, unknown>) => {
    const response = await search(payload);
    expect(response.statusCode).toBe(200);
    return response.json<{ data: { brokers: Found[]; matched: number } }>().data;
  };
  const load = () => context.app.services.brokerSearch.load(exampleDirectory);

  it('offers the built-in platform to everyone, even with an empty directory', async () => {
    const { brokers: list, matched } = await found({ ...answers, country: 'JP', deposit: 0 });
    expect(matched).toBe(0);
    expect(list).toEqual([
      expect.objectContaining({ id: 'tradebot-demo', builtIn: true, robotSupported: true }),
    ]);
  });

  it('filters the directory by country, every market chosen, deposit, platform and regulation', async () => {
    expect(await load()).toBe(6);
    const ids = async (payload: Record<string, unknown>) =>
      (await found({ ...answers, ...payload })).brokers.map((broker) => broker.id);

    // AR, stocks, $1,000: three serve AR with stocks; the cheapest first for a beginner.
    expect(await ids({})).toEqual([
      'tradebot-demo',
      'bolsa-sur-digital-ejemplo',
      'corredora-andina-ejemplo',
      'inversiones-pampa-ejemplo',
    ]);
    // Someone experienced sees the widest choice of markets first.
    expect(await ids({ experience: 'experienced' })).toEqual([
      'tradebot-demo',
      'corredora-andina-ejemplo',
      'bolsa-sur-digital-ejemplo',
      'inversiones-pampa-ejemplo',
    ]);
    expect(await ids({ deposit: 99 })).toEqual(['tradebot-demo', 'bolsa-sur-digital-ejemplo']);
    expect(await ids({ markets: ['stocks', 'forex'] })).toEqual([
      'tradebot-demo',
      'corredora-andina-ejemplo',
    ]);
    expect(await ids({ platform: 'metatrader5' })).toEqual([
      'tradebot-demo',
      'corredora-andina-ejemplo',
    ]);
    // An unregulated entry shows only when asked for.
    expect(await ids({ markets: ['cripto'] })).toEqual([
      'tradebot-demo',
      'bolsa-sur-digital-ejemplo',
    ]);
    expect(await ids({ markets: ['cripto'], regulated_only: false, deposit: 20 })).toEqual([
      'tradebot-demo',
      'cripto-puerto-ejemplo',
    ]);
    // None of the examples works with the robot: only the built-in platform does.
    expect(await ids({ robot_only: true })).toEqual(['tradebot-demo']);
    expect(
      (await found({ ...answers, country: 'mx', markets: ['forex'] })).brokers[1],
    ).toMatchObject({ id: 'mercado-global-fx-ejemplo', example: true, minDeposit: 250 });
  });

  it('refuses bad answers field by field (422), in the language asked for', async () => {
    const response = await search(
      { country: 'Argentina', markets: [], deposit: -5, experience: 'guru', platform: 'fax' },
      { 'accept-language': 'pt' },
    );
    expect(response.statusCode).toBe(422);
    expect(response.json<{ errors: Record<string, string[]> }>().errors).toEqual({
      country: ['Valor inválido'],
      markets: ['Este campo é obrigatório'],
      deposit: ['Valor inválido'],
      experience: ['Valor inválido'],
      platform: ['Valor inválido'],
    });
    const repeated = await search({ ...answers, markets: ['forex', 'forex'] });
    expect(repeated.statusCode).toBe(422);
    const unknownMarket = await search({ ...answers, markets: ['bonds'] });
    expect(unknownMarket.statusCode).toBe(422);
  });

  it('loads a directory whole or not at all', async () => {
    await load();
    const bad = { brokers: [{ ...exampleDirectory.brokers[0], countries: ['Argentina'] }] };
    await expect(context.app.services.brokerSearch.load(bad)).rejects.toThrow();
    const twice = { brokers: [exampleDirectory.brokers[0], exampleDirectory.brokers[0]] };
    await expect(context.app.services.brokerSearch.load(twice)).rejects.toThrow(/twice/);
    expect(await context.app.database.db.select().from(brokers)).toHaveLength(6);
    // A real directory replaces the examples.
    const real = {
      brokers: [{ ...exampleDirectory.brokers[0], id: 'real-one', name: 'Real', example: false }],
    };
    expect(await context.app.services.brokerSearch.load(real)).toBe(1);
    const list = (await found(answers)).brokers;
    expect(list.map((broker) => [broker.id, broker.example])).toEqual([
      ['tradebot-demo', false],
      ['real-one', false],
    ]);
    expect(await context.app.services.brokerSearch.loadExamplesIfEmpty(exampleDirectory)).toBe(
      false,
    );
  });

  it('is rate-limited per address (60 a minute)', async () => {
    for (let attempt = 0; attempt < 60; attempt++) {
      expect((await search(answers)).statusCode).toBe(200);
    }
    expect((await search(answers)).statusCode).toBe(429);
  });
});
