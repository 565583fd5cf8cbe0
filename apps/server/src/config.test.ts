import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('uses the embedded defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 8080,
      HOST: '127.0.0.1',
      DATA_DIR: './data',
      TRUST_PROXY: false,
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.dataDir).toMatch(/\/data$/);
  });

  it('runs the robot on a one-second market by default, and validates its settings', () => {
    expect(loadConfig({})).toMatchObject({
      ROBOT_ENABLED: true,
      MARKET_TICK_MS: 1000,
      MARKET_SPEED: 1,
    });
    expect(loadConfig({}).MARKET_SEED).toBeUndefined();
    // An hour of history at start (decision 149); ten minutes in tests, 0 skips it.
    expect(loadConfig({}).ROBOT_WARM_UP_MS).toBe(3_600_000);
    expect(loadConfig({ NODE_ENV: 'development' }).ROBOT_WARM_UP_MS).toBe(3_600_000);
    expect(loadConfig({ NODE_ENV: 'test' }).ROBOT_WARM_UP_MS).toBe(600_000);
    expect(loadConfig({ ROBOT_WARM_UP_MS: '0' }).ROBOT_WARM_UP_MS).toBe(0);
    expect(() => loadConfig({ ROBOT_WARM_UP_MS: '-1' })).toThrow(/ROBOT_WARM_UP_MS/);
    expect(
      loadConfig({ ROBOT_ENABLED: 'false', MARKET_SEED: '7', MARKET_SPEED: '60' }),
    ).toMatchObject({ ROBOT_ENABLED: false, MARKET_SEED: 7, MARKET_SPEED: 60 });
    expect(() => loadConfig({ MARKET_TICK_MS: '5' })).toThrow(/MARKET_TICK_MS/);
    expect(() => loadConfig({ MARKET_SPEED: '0.5' })).toThrow(/MARKET_SPEED/);
    expect(() => loadConfig({ ROBOT_ENABLED: 'perhaps' })).toThrow(/ROBOT_ENABLED/);
  });

  it('runs the robot in a worker thread fed by 250 ms views unless told otherwise', () => {
    expect(loadConfig({})).toMatchObject({ ROBOT_THREAD: 'worker', ROBOT_MIRROR_MS: 250 });
    expect(loadConfig({ ROBOT_THREAD: 'inline', ROBOT_MIRROR_MS: '0' })).toMatchObject({
      ROBOT_THREAD: 'inline',
      ROBOT_MIRROR_MS: 0,
    });
    expect(() => loadConfig({ ROBOT_THREAD: 'process' })).toThrow(/ROBOT_THREAD/);
    expect(() => loadConfig({ ROBOT_MIRROR_MS: '-1' })).toThrow(/ROBOT_MIRROR_MS/);
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: ' ' }).PORT).toBe(8080);
  });

  it.each([
    ['false', false],
    ['0', false],
    ['2', 2],
    ['10.0.0.0/8, 127.0.0.1', ['10.0.0.0/8', '127.0.0.1']],
    ['loopback, fd00::/8', ['loopback', 'fd00::/8']],
  ])('reads TRUST_PROXY=%s', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
  });

  it('refuses TRUST_PROXY=true, saying why and what to give instead', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(
      /TRUST_PROXY: true is refused: it trusts any X-Forwarded-For a client sends.*number of proxies/,
    );
  });

  it.each(['10.0.0.0/33', '300.1.1.1', '::1/129', 'proxy.internal', '10.0.0.1/8/2'])(
    'refuses TRUST_PROXY=%s',
    (value) => {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY: must be false/);
    },
  );

  it('reports every bad value in one readable message', () => {
    let caught: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        TOKEN_SECRET: 'short',
        TRUST_PROXY: 'maybe?',
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const problems = (caught as ConfigError).problems.join('\n');
    expect(problems).toContain('PORT');
    expect(problems).toContain('DATABASE_URL: must start with postgres:// or postgresql://');
    expect(problems).toContain('TOKEN_SECRET: must be at least 32 characters');
    expect(problems).toContain('TRUST_PROXY');
  });

  it('takes a test-only robot strategy under NODE_ENV=test and refuses it anywhere else', () => {
    expect(
      loadConfig({ NODE_ENV: 'test', ROBOT_TEST_ONLY_STRATEGY: 'always-signal' })
        .ROBOT_TEST_ONLY_STRATEGY,
    ).toBe('always-signal');
    expect(loadConfig({}).ROBOT_TEST_ONLY_STRATEGY).toBeUndefined();
    for (const env of [
      { ROBOT_TEST_ONLY_STRATEGY: 'always-signal' },
      { NODE_ENV: 'production', ROBOT_TEST_ONLY_STRATEGY: 'always-signal' },
      { NODE_ENV: 'development', ROBOT_TEST_ONLY_STRATEGY: 'always-signal' },
    ]) {
      expect(() => loadConfig(env)).toThrow(/ROBOT_TEST_ONLY_STRATEGY: is for tests only/);
    }
    expect(() => loadConfig({ NODE_ENV: 'test', ROBOT_TEST_ONLY_STRATEGY: 'model' })).toThrow(
      ConfigError,
    );
  });

  it('pins the market to MARKET_START only in tests, read as an instant with its zone (issue 41)', () => {
    const pinned = Date.parse('2026-11-25T15:00:00Z');
    expect(
      loadConfig({ NODE_ENV: 'test', MARKET_START: '2026-11-25T15:00:00Z' }).MARKET_START,
    ).toBe(pinned);
    expect(
      loadConfig({ NODE_ENV: 'test', MARKET_START: '2026-11-25T12:00:00-03:00' }).MARKET_START,
    ).toBe(pinned);
    expect(loadConfig({ NODE_ENV: 'test', MARKET_START: String(pinned) }).MARKET_START).toBe(
      pinned,
    );
    expect(loadConfig({ NODE_ENV: 'test' }).MARKET_START).toBeUndefined();
    // No zone would read the machine's own: refused, like anything that is not an instant.
    for (const value of [
      '2026-11-25T15:00:00',
      '2026-11-25',
      'wednesday',
      '2026-13-45T15:00:00Z',
    ]) {
      expect(() => loadConfig({ NODE_ENV: 'test', MARKET_START: value })).toThrow(
        /MARKET_START: must be epoch milliseconds or an ISO-8601 instant/,
      );
    }
    expect(() => loadConfig({ MARKET_START: '2026-11-25T15:00:00Z' })).toThrow(
      /MARKET_START: is for tests only/,
    );
  });

  it('runs the built-in platform on the simulator unless told to replay a folder of recorded quotes (decision 140)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'quotes-'));
    try {
      expect(loadConfig({}).MARKET_SOURCE).toBe('simulator');
      expect(loadConfig({}).MARKET_QUOTES_DIR).toBeUndefined();
      const recorded = loadConfig({
        MARKET_SOURCE: 'recorded',
        MARKET_QUOTES_DIR: dir,
        MARKET_QUOTES_NAME: 'OANDA',
      });
      expect(recorded).toMatchObject({
        MARKET_SOURCE: 'recorded',
        MARKET_QUOTES_DIR: dir,
        MARKET_QUOTES_NAME: 'OANDA',
      });
      // One line each: what is wrong and with which variable.
      expect(() => loadConfig({ MARKET_SOURCE: 'recorded' })).toThrow(
        /^Invalid configuration:\n {2}- MARKET_QUOTES_DIR: is required with MARKET_SOURCE=recorded: the folder of recorded quotes$/,
      );
      const missing = path.join(dir, 'nowhere');
      expect(() => loadConfig({ MARKET_SOURCE: 'recorded', MARKET_QUOTES_DIR: missing })).toThrow(
        `MARKET_QUOTES_DIR: ${missing} is not a folder`,
      );
      const file = path.join(dir, 'EURUSD.csv');
      writeFileSync(file, 'time,bid,ask\n');
      expect(() => loadConfig({ MARKET_SOURCE: 'recorded', MARKET_QUOTES_DIR: file })).toThrow(
        `MARKET_QUOTES_DIR: ${file} is not a folder`,
      );
      expect(() => loadConfig({ MARKET_SOURCE: 'broker' })).toThrow(/MARKET_SOURCE: /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('takes a crash point for the robot only in tests (decision 092, amended)', () => {
    expect(
      loadConfig({ NODE_ENV: 'test', ROBOT_TEST_ONLY_CRASH_AT: 'intent-stored' })
        .ROBOT_TEST_ONLY_CRASH_AT,
    ).toBe('intent-stored');
    expect(loadConfig({}).ROBOT_TEST_ONLY_CRASH_AT).toBeUndefined();
    for (const env of [
      { ROBOT_TEST_ONLY_CRASH_AT: 'platform-accepted' },
      { NODE_ENV: 'production', ROBOT_TEST_ONLY_CRASH_AT: 'platform-accepted' },
    ]) {
      expect(() => loadConfig(env)).toThrow(/ROBOT_TEST_ONLY_CRASH_AT: is for tests only/);
    }
    expect(() => loadConfig({ NODE_ENV: 'test', ROBOT_TEST_ONLY_CRASH_AT: 'anywhere' })).toThrow(
      ConfigError,
    );
  });
});
