import { closeOperationResponseSchema, getAllDataResponseSchema } from '@tradebot/contract';
import { describe, expect, it } from 'vitest';
import { v1 } from './helpers/accounts';
import {
  getAllData,
  openCount,
  robotOf,
  runMarket,
  storedTrades,
  trader,
  useRobotApp,
} from './helpers/trading';

const closeUrl = (id: string) => `${v1}/operations/${encodeURIComponent(id)}/close`;

/** Closing one operation (issue 39; decision 152), on the real app and its robot. */
describe('the user closes one operation', () => {
  const context = useRobotApp({ LOG_LEVEL: 'error' });

  /** A trader with at least two operations open; their ids, newest first. */
  async function withOpenOperations(email?: string) {
    const account = await trader(context.app, email ? { email } : {});
    const { userId } = account;
    expect(await runMarket(context, async () => (await openCount(context.app, userId)) >= 2)).toBe(
      true,
    );
    const projection = await robotOf(context.app).projection(userId);
    const ids = projection?.trades.map((row) => row.id) ?? [];
    return { ...account, ids };
  }

  function close(id: string, headers: Record<string, string>) {
    return context.app.inject({ method: 'POST', url: closeUrl(id), headers });
  }

  it('closes that one at the market, by the user, and leaves the rest and the robot as they were', async () => {
    const { headers, userId, ids } = await withOpenOperations();
    const [target, ...others] = ids;
    if (!target) throw new Error('no operation open');

    const response = await close(target, headers);
    expect(response.statusCode).toBe(200);
    const { operation } = closeOperationResponseSchema.parse(response.json()).data;
    expect(operation).toMatchObject({ id: target, status: 'closed', closeReason: 'manual' });
    expect(operation.closePrice).not.toBeNull();

    const data = getAllDataResponseSchema.parse(
      (await getAllData(context.app, headers)).json(),
    ).data;
    expect(data.trades.map((row) => row.id)).toEqual(others);
    expect(data.closed.find((row) => row.id === target)).toMatchObject({ closeReason: 'manual' });
    expect(data.robot.bot_on).toBe(true);
    const stored = (await storedTrades(context.app, userId)).find((t) => t.positionId === target);
    expect(stored).toMatchObject({ closeReason: 'manual', profitCents: operation.Profit * 100 });
  });

  it('answers a double click with one closure and the same row twice', async () => {
    const { headers, userId, ids } = await withOpenOperations();
    const target = ids[0] ?? '';
    const [first, second] = await Promise.all([close(target, headers), close(target, headers)]);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(second.json()).toEqual(first.json());
    const again = await close(target, headers);
    expect(again.json()).toEqual(first.json());
    const manual = (await storedTrades(context.app, userId)).filter(
      (t) => t.closeReason === 'manual',
    );
    expect(manual.map((t) => t.positionId)).toEqual([target]);
  });

  it("refuses another user's operation and an unknown one (404), in the user's language", async () => {
    const owner = await withOpenOperations('owner@example.com');
    const other = await trader(context.app, { email: 'other@example.com' });
    const target = owner.ids[0] ?? '';
    const foreign = await close(target, { ...other.headers, 'accept-language': 'pt-BR' });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({
      code: 'NOT_FOUND',
      message: 'Não encontramos essa operação na sua conta.',
    });
    const unknown = await close('P999999', owner.headers);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ message: 'No encontramos esa operación en tu cuenta.' });
    expect(await openCount(context.app, owner.userId)).toBe(owner.ids.length);
  });

  it('refuses one the kill switch closed (409), and a bad id (422)', async () => {
    const { headers, ids } = await withOpenOperations();
    const kill = await context.app.inject({ method: 'POST', url: `${v1}/robot/kill`, headers });
    expect(kill.statusCode).toBe(200);
    const closed = await close(ids[0] ?? '', { ...headers, 'accept-language': 'es' });
    expect(closed.statusCode).toBe(409);
    expect(closed.json()).toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('Esta operación ya estaba cerrada') as unknown,
    });
    const bad = await close('P1;drop', headers);
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: { id: ['Valor no válido'] },
    });
  });

  it('asks for a token (401)', async () => {
    const response = await context.app.inject({ method: 'POST', url: closeUrl('P1') });
    expect(response.statusCode).toBe(401);
  });

  it('says the robot does not answer (503) and leaves the operation open', async () => {
    const { headers, userId, ids } = await withOpenOperations();
    const target = ids[0] ?? '';
    await robotOf(context.app).stop();
    const response = await close(target, { ...headers, 'accept-language': 'pt' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      message: expect.stringContaining('Ela continua aberta') as unknown,
    });
    const stored = (await storedTrades(context.app, userId)).find((t) => t.positionId === target);
    expect(stored?.closeReason).toBe('open');
  });
});
