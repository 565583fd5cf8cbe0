// `npm run ctrader:fake`: the local fake cTrader (the Open API server and Spotware's OAuth pages,
// decisions 077 and 091) on 127.0.0.1, for operators who want to try cTrader linking without a
// Spotware application. It prints the environment to give the server, moves the fake broker's
// prices every second (a small random walk, so the robot sees a market), and runs until Ctrl-C.
// Ports: CTRADER_FAKE_PORT (5035) and CTRADER_FAKE_OAUTH_PORT (5036); the server's own address
// for the redirect: PUBLIC_URL (http://127.0.0.1:3000).
import {
  DEMO_ACCOUNT,
  EURUSD,
  FAKE_APP,
  FakeCTraderOAuthServer,
  FakeCTraderServer,
  XAUUSD,
  fakeOptions,
} from '@tradebot/robot/ctrader/fake';

const apiPort = Number(process.env.CTRADER_FAKE_PORT ?? 5035);
const oauthPort = Number(process.env.CTRADER_FAKE_OAUTH_PORT ?? 5036);
const publicUrl = (process.env.PUBLIC_URL ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');

const ctrader = new FakeCTraderServer(fakeOptions({ heartbeatIntervalMs: 10_000 }));
await ctrader.listen(apiPort);
const oauth = new FakeCTraderOAuthServer({
  ...FAKE_APP,
  accessToken: DEMO_ACCOUNT.accessToken,
  onTokenReplaced: (previous, next) => {
    ctrader.replaceToken(previous, next);
  },
});
await oauth.listen(oauthPort);

const env = {
  CTRADER_CLIENT_ID: FAKE_APP.clientId,
  CTRADER_CLIENT_SECRET: FAKE_APP.clientSecret,
  CTRADER_AUTH_URL: oauth.authorizeUrl,
  CTRADER_TOKEN_URL: oauth.tokenUrl,
  CTRADER_REDIRECT_URI: `${publicUrl}/link-account/ctrader/callback`,
  CTRADER_HOST: '127.0.0.1',
  CTRADER_PORT: String(ctrader.port),
  CTRADER_TLS: 'false',
};
const lines = Object.entries(env).map(([name, value]) => `${name}=${value}`);
console.log(
  [
    `fake cTrader: Open API on 127.0.0.1:${String(ctrader.port)}, OAuth on ${oauth.origin}`,
    '',
    '# Start the server with this environment (in another terminal: export each line, then npm start):',
    ...lines,
    '',
    `One demo account (${DEMO_ACCOUNT.brokerName}, login ${String(DEMO_ACCOUNT.traderLogin)}, ` +
      'USD 10,000, 1:100): link it from the app (Link account, cTrader); the fake grants access ' +
      'at once. Prices of EURUSD and XAUUSD move every second. Ctrl-C stops it.',
  ].join('\n'),
);

// A small random walk around the fixtures' prices, the spread kept.
const walking = [EURUSD, XAUUSD].map((symbol) => ({ ...symbol }));
const timer = setInterval(() => {
  for (const symbol of walking) {
    const spread = symbol.ask - symbol.bid;
    const step = symbol.bid * 0.0002 * (Math.random() * 2 - 1);
    symbol.bid += step;
    symbol.ask = symbol.bid + spread;
    ctrader.setPrice(symbol.symbolId, symbol.bid, symbol.ask);
  }
}, 1_000);

let closing = false;
const stop = () => {
  if (closing) return;
  closing = true;
  clearInterval(timer);
  void Promise.all([oauth.close(), ctrader.close()]).then(() => {
    console.log('fake cTrader: stopped');
  });
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
