import {
  DEMO_ACCOUNT,
  FAKE_APP,
  FakeCTraderOAuthServer,
  FakeCTraderServer,
  fakeOptions,
  serveRecordedTicks,
  type FakeSymbol,
} from '../../packages/robot/test-support/ctrader-fake/index';

/**
 * The fake cTrader Open API server and the fake Spotware OAuth server (decisions 077, 091), on
 * 127.0.0.1, and the server's environment that points at them: pass `env` to `startServer`.
 */
export interface CTraderFakes {
  readonly ctrader: FakeCTraderServer;
  readonly oauth: FakeCTraderOAuthServer;
  readonly env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * `symbols`: those the fake broker lists (by default, the fixtures' forex pair and gold).
 * `recordedTicks`: the fake's tick history is the shared OANDA sample in this folder, moved into
 * the last `days` days (decision 144).
 */
export async function startCTraderFakes(
  symbols?: readonly FakeSymbol[],
  recordedTicks?: { folder: string; days: number },
): Promise<CTraderFakes> {
  const ctrader = new FakeCTraderServer(
    fakeOptions({
      ...(symbols ? { symbols } : {}),
      ...(recordedTicks ? { tickHistoryLimit: 2_000_000, tickDataChunkSize: 20_000 } : {}),
    }),
  );
  await ctrader.listen();
  if (recordedTicks) {
    await serveRecordedTicks(ctrader, recordedTicks.folder, symbols ?? fakeOptions().symbols, {
      days: recordedTicks.days,
    });
  }
  const oauth = new FakeCTraderOAuthServer({
    ...FAKE_APP,
    accessToken: DEMO_ACCOUNT.accessToken,
    onTokenReplaced: (previous, next) => {
      ctrader.replaceToken(previous, next);
    },
  });
  await oauth.listen();
  return {
    ctrader,
    oauth,
    env: {
      CTRADER_CLIENT_ID: FAKE_APP.clientId,
      CTRADER_CLIENT_SECRET: FAKE_APP.clientSecret,
      CTRADER_AUTH_URL: oauth.authorizeUrl,
      CTRADER_TOKEN_URL: oauth.tokenUrl,
      CTRADER_HOST: '127.0.0.1',
      CTRADER_PORT: String(ctrader.port),
      CTRADER_TLS: 'false',
    },
    close: async () => {
      await oauth.close();
      await ctrader.close();
    },
  };
}

export { DEMO_ACCOUNT };
