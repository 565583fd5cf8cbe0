import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { trader, useRobotApp } from './helpers/trading';

interface LogLine {
  level: number;
  msg: string;
  process?: string;
  accounts?: string[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Issue 40, logs an operator can act on (decision 160): a healthy start with leases logs nothing
 * at warn or above, and each robot line names the process (and the accounts, when it concerns
 * some) on one line.
 */
describe('the robot logs one line per event, with its process and accounts', () => {
  const lines: LogLine[] = [];
  const context = useRobotApp(
    { LOG_LEVEL: 'info', ROBOT_LEASES: 'true', ROBOT_LEASE_RENEW_MS: '100' },
    () => ({
      logStream: new Writable({
        write(chunk: Buffer, _encoding, done) {
          for (const text of chunk.toString().split('\n')) {
            if (text.trim() !== '') lines.push(JSON.parse(text) as LogLine);
          }
          done();
        },
      }),
    }),
  );

  it('a healthy start: leases claimed and a run started, nothing at warn or error', async () => {
    const { userId } = await trader(context.app);
    for (
      let i = 0;
      i < 100 && !lines.some((line) => line.msg === 'leases: claimed accounts');
      i++
    ) {
      await sleep(50);
    }
    await context.app.robot?.advance();
    const leaseLines = lines.filter((line) => line.msg.startsWith('leases:'));
    const claimed = leaseLines.find((line) => line.msg === 'leases: claimed accounts');
    expect(claimed?.accounts).toContain(userId);
    expect(leaseLines.some((line) => /^leases: run \d+ trades 1 accounts$/.test(line.msg))).toBe(
      true,
    );
    for (const line of leaseLines) {
      expect(line.process).toBe(context.app.owner);
      // An event that concerns no account carries no empty list.
      expect(line.accounts === undefined || line.accounts.length > 0).toBe(true);
    }
    // Tests run without the web's build, which production has (its absence is worth a warning).
    const noWebBuild = 'no web build found; serving the API only';
    expect(lines.filter((line) => line.level >= 40 && line.msg !== noWebBuild)).toEqual([]);
  });
});
