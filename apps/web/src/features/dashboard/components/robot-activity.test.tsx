import type { Language, RobotActivity, RobotStatus } from '@tradebot/contract';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import { changeLanguage, loadNamespaces } from '../../../lib/i18n';
import { RobotActivityList } from './robot-activity';
import { RobotState } from './robot-state';

/**
 * Issue 39, defect 1: the robot said "vigila los mercados" whatever it did. Each category the
 * user chose now has its line: a closed market and when it opens, a model still learning, no
 * edge with the best forecast against what it needs, or trading; and when it last looked.
 */
const activity: RobotActivity = {
  asOf: '2026-11-23T12:00:30.000Z',
  categories: [
    {
      category: 'forex',
      state: 'NO_EDGE',
      best: {
        symbol: 'EURUSD',
        probability: 0.51,
        breakEvenProbability: 0.53,
        requiredProbability: 0.54,
      },
      openOperations: 0,
      evaluatedAt: '2026-11-23T12:00:18.000Z',
    },
    {
      category: 'stocks',
      state: 'MARKET_CLOSED',
      opensAt: '2026-11-23T13:30:00.000Z',
      openOperations: 0,
      evaluatedAt: null,
    },
    {
      category: 'cripto',
      state: 'TRADING',
      best: {
        symbol: 'BTCUSD',
        probability: 0.56,
        breakEvenProbability: 0.52,
        requiredProbability: 0.53,
      },
      openOperations: 2,
      evaluatedAt: '2026-11-23T12:00:27.000Z',
    },
    {
      category: 'index',
      state: 'LEARNING',
      outcomes: 1200,
      outcomesNeeded: 3000,
      openOperations: 0,
      evaluatedAt: '2026-11-23T11:57:30.000Z',
    },
    {
      category: 'commodities',
      state: 'NO_EDGE',
      best: null,
      openOperations: 0,
      evaluatedAt: null,
    },
  ],
};

/** The list's lines as a reader hears them (tags out, spaces as one). */
function lines(html: string): string[] {
  return [...html.matchAll(/<li>(.*?)<\/li>/g)].map((match) =>
    (match[1] ?? '')
      .replace(/<[^>]+>/g, '')
      .replace(/\s+/g, ' ')
      .trim(),
  );
}

async function render(language: Language, element: React.ReactElement): Promise<string> {
  await changeLanguage(language);
  return renderToStaticMarkup(<MemoryRouter>{element}</MemoryRouter>);
}

beforeAll(async () => {
  await loadNamespaces(['dashboard']);
});

describe('what the robot does per category (decision 147)', () => {
  it.each([
    [
      'es',
      [
        'Forex: sin ventaja — mejor pronóstico 51% contra 54% necesario · hace 12 s',
        'Acciones: mercado cerrado, abre lun, 10:30',
        'Cripto: operando, 2 operaciones abiertas — mejor pronóstico 56% contra 53% necesario · hace 3 s',
        'Índices: aprendiendo antes de su primera decisión — 1,200 de 3,000 resultados · hace 3 min',
        'Materias primas: todavía sin pronóstico · todavía sin precios',
      ],
    ],
    [
      'pt',
      [
        'Forex: sem vantagem — melhor previsão 51% contra 54% necessário · há 12 seg.',
        'Ações: mercado fechado, abre seg., 10:30',
        'Cripto: operando, 2 operações abertas — melhor previsão 56% contra 53% necessário · há 3 seg.',
        'Índices: aprendendo antes da primeira decisão — 1.200 de 3.000 resultados · há 3 min.',
        'Commodities: ainda sem previsão · ainda sem preços',
      ],
    ],
  ] as const)('in %s: one line per chosen category', async (language, expected) => {
    const html = await render(
      language,
      <RobotActivityList activity={activity} timeZone="America/Sao_Paulo" />,
    );
    expect(lines(html).map((line) => line.replace(/\u00a0/g, ' '))).toEqual(expected);
    // A list named by its heading, for screen readers.
    expect(html).toContain('<ul class="');
    expect(html).toMatch(/<h3 id="robot-activity-title"[^>]*>[^<]+<\/h3>/);
    expect(html).toContain('aria-labelledby="robot-activity-title"');
  });

  it('says one operation in the singular, and "with edge" with none open yet', async () => {
    const one: RobotActivity = {
      asOf: activity.asOf,
      categories: [
        {
          category: 'forex',
          state: 'TRADING',
          best: null,
          openOperations: 1,
          evaluatedAt: activity.asOf,
        },
        {
          category: 'cripto',
          state: 'TRADING',
          best: null,
          openOperations: 0,
          evaluatedAt: activity.asOf,
        },
      ],
    };
    expect(lines(await render('es', <RobotActivityList activity={one} />))).toEqual([
      'Forex: operando, 1 operación abierta · ahora',
      'Cripto: con ventaja · ahora',
    ]);
  });

  it('shows the lines under the robot state while it is on, and says when they are old', async () => {
    const on: RobotStatus = { bot_on: true, trading: true, idleReason: null, activity };
    const shown = await render('es', <RobotState robot={on} stale />);
    expect(lines(shown)).toHaveLength(5);
    expect(shown).toContain('No pudimos actualizar estas líneas');
    const fresh = await render('pt', <RobotState robot={on} />);
    expect(fresh).not.toContain('Não conseguimos atualizar');
    // Off, or from a server that does not say: the state's own sentence, no list.
    const off = await render('es', <RobotState robot={{ ...on, bot_on: false }} />);
    expect(off).not.toContain('robot-activity');
    const { activity: _absent, ...before } = on;
    expect(await render('es', <RobotState robot={before} />)).not.toContain('robot-activity');
  });
});
