import net from 'node:net';
import { realtimePath, translate } from '@tradebot/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionLifetimeMs } from '../src/services/auth.service';
import { useTestApp } from './helpers/app';
import {
  bearer,
  codeIn,
  login,
  manualClock,
  readMails,
  registeredToken,
  v1,
  validRegistration,
} from './helpers/accounts';
import {
  accountInfo,
  connectClient,
  listen,
  refusalOf,
  settle,
  withinTimeout,
  type TestClient,
} from './helpers/realtime-client';

describe('the real-time channel (spec §4 Real-time updates)', () => {
  const clock = manualClock();
  const context = useTestApp({}, () => ({ clock }));
  const clients: TestClient[] = [];
  afterEach(() => {
    for (const client of clients.splice(0)) client.socket.close();
  });

  async function connect(address: string, token: string) {
    const client = await connectClient(address, { auth: { token } });
    clients.push(client);
    return client;
  }
  const userIdOf = async (token: string) => {
    const session = await context.app.services.auth.authenticate(token);
    if (!session) throw new Error('no session');
    return session.user.id;
  };

  it('delivers what toUser sends to the user, as { info }', async () => {
    const token = await registeredToken(context.app);
    const address = await listen(context.app);
    const client = await connect(address, token);
    const userId = await userIdOf(token);
    expect(context.app.realtime.hasListeners(userId)).toBe(true);

    context.app.realtime.toUser(userId, accountInfo(1000));

    expect(await client.eventAt(0)).toEqual({ info: accountInfo(1000) });
  });

  it('has no presence heartbeat in one process without Redis', () => {
    expect(context.app.jobs.names()).not.toContain('realtime-presence');
  });

  it('accepts the token in an Authorization header too', async () => {
    const token = await registeredToken(context.app);
    const address = await listen(context.app);
    const client = await connectClient(address, { extraHeaders: bearer(token) });
    clients.push(client);
    context.app.realtime.toUser(await userIdOf(token), accountInfo(5));
    expect(await client.eventAt(0)).toEqual({ info: accountInfo(5) });
  });

  it('sends each user only their own events, and knows who has no listener', async () => {
    const maria = await registeredToken(context.app);
    const joao = await registeredToken(context.app, 'joao@example.com');
    const idle = await registeredToken(context.app, 'idle@example.com');
    const address = await listen(context.app);
    const mariaClient = await connect(address, maria);
    const joaoClient = await connect(address, joao);

    context.app.realtime.toUser(await userIdOf(maria), accountInfo(1));
    context.app.realtime.toUser(await userIdOf(joao), accountInfo(2));

    expect(await mariaClient.eventAt(0)).toEqual({ info: accountInfo(1) });
    expect(await joaoClient.eventAt(0)).toEqual({ info: accountInfo(2) });
    await settle();
    expect(mariaClient.events).toHaveLength(1);
    expect(joaoClient.events).toHaveLength(1);
    expect(context.app.realtime.hasListeners(await userIdOf(idle))).toBe(false);
  });

  it('refuses a missing or unknown token with a localized message and a code', async () => {
    const address = await listen(context.app);
    expect(await refusalOf(address, { auth: {} })).toEqual({
      message: translate('es', 'errors.UNAUTHENTICATED'),
      code: 'UNAUTHENTICATED',
    });
    expect(await refusalOf(address, { auth: { token: 'x'.repeat(43), language: 'pt' } })).toEqual({
      message: translate('pt', 'errors.UNAUTHENTICATED'),
      code: 'UNAUTHENTICATED',
    });
    expect(
      await refusalOf(address, {
        auth: { token: 'y'.repeat(43) },
        extraHeaders: { 'accept-language': 'pt-BR' },
      }),
    ).toMatchObject({ message: translate('pt', 'errors.UNAUTHENTICATED') });
  });

  it('refuses an expired token', async () => {
    const token = await registeredToken(context.app);
    const address = await listen(context.app);
    clock.advance(sessionLifetimeMs.default + 1000);
    expect(await refusalOf(address, { auth: { token } })).toMatchObject({
      code: 'UNAUTHENTICATED',
    });
  });

  it('refuses a revoked token', async () => {
    const token = await registeredToken(context.app);
    const address = await listen(context.app);
    const logout = await context.app.inject({
      method: 'POST',
      url: `${v1}/logout`,
      headers: bearer(token),
    });
    expect(logout.statusCode).toBe(200);
    expect(await refusalOf(address, { auth: { token } })).toMatchObject({
      code: 'UNAUTHENTICATED',
    });
  });

  it("logout disconnects that session's sockets, not the user's other sessions", async () => {
    const first = await registeredToken(context.app);
    const loggedIn = await login(context.app, {
      email: validRegistration.email,
      password: validRegistration.password,
    });
    const second = loggedIn.json<{ data: { token: string } }>().data.token;
    const address = await listen(context.app);
    const firstClient = await connect(address, first);
    const secondClient = await connect(address, second);

    await context.app.inject({ method: 'POST', url: `${v1}/logout`, headers: bearer(first) });

    expect(await withinTimeout(firstClient.disconnected, 'the disconnection')).toBe(
      'io server disconnect',
    );
    expect(secondClient.socket.connected).toBe(true);
    context.app.realtime.toUser(await userIdOf(second), accountInfo(7));
    expect(await secondClient.eventAt(0)).toEqual({ info: accountInfo(7) });
  });

  it('a password change disconnects every socket of the user, and only theirs', async () => {
    const first = await registeredToken(context.app);
    const loggedIn = await login(context.app, {
      email: validRegistration.email,
      password: validRegistration.password,
    });
    const second = loggedIn.json<{ data: { token: string } }>().data.token;
    const other = await registeredToken(context.app, 'otra@example.com');
    const address = await listen(context.app);
    const firstClient = await connect(address, first);
    const secondClient = await connect(address, second);
    const otherClient = await connect(address, other);
    const mariaId = await userIdOf(first);

    await context.app.inject({
      method: 'POST',
      url: `${v1}/forgot-password`,
      payload: { email: validRegistration.email, language: 'es' },
    });
    const code = codeIn((await readMails(context.mailDir))[0] ?? '');
    const changed = await context.app.inject({
      method: 'POST',
      url: `${v1}/set-password`,
      payload: {
        email: validRegistration.email,
        otp: code,
        password: 'nueva4567',
        confirm_password: 'nueva4567',
      },
    });
    expect(changed.statusCode).toBe(200);

    expect(await withinTimeout(firstClient.disconnected, 'the first disconnection')).toBe(
      'io server disconnect',
    );
    expect(await withinTimeout(secondClient.disconnected, 'the second disconnection')).toBe(
      'io server disconnect',
    );
    expect(otherClient.socket.connected).toBe(true);
    expect(context.app.realtime.hasListeners(mariaId)).toBe(false);
  });

  it('closes with the app, dropping the transports so that clients reconnect elsewhere', async () => {
    const token = await registeredToken(context.app);
    const address = await listen(context.app);
    const client = await connect(address, token);
    await context.app.close();
    // "io server disconnect" would tell socket.io-client not to reconnect.
    expect(await withinTimeout(client.disconnected, 'the disconnection')).toBe('transport close');
  });

  it('does not wait on a peer that never answers the WebSocket closing handshake', async () => {
    const address = new URL(await listen(context.app));
    const peer = net.connect(Number(address.port), address.hostname);
    const upgraded = new Promise<string>((resolve) => {
      peer.once('data', (chunk) => {
        resolve(chunk.toString('latin1'));
      });
    });
    peer.write(
      [
        `GET ${realtimePath}/?EIO=4&transport=websocket HTTP/1.1`,
        `Host: ${address.host}`,
        'Upgrade: websocket',
        'Connection: Upgrade',
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
        'Sec-WebSocket-Version: 13',
        '',
        '',
      ].join('\r\n'),
    );
    expect(await withinTimeout(upgraded, 'the upgrade')).toMatch(/^HTTP\/1\.1 101/);
    const peerClosed = new Promise((resolve) => peer.once('close', resolve));

    // Without a cut, ws waits 30 s for the answer and the close with it.
    await withinTimeout(context.app.close(), 'the close');
    await withinTimeout(peerClosed, 'the peer to be cut');
  });
});
