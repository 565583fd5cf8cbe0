import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { RealQuotesReport } from '@tradebot/contract';
import { defaultRecordedQuotesDir, type Config } from '../config';
import { folderFingerprint, robotCodeVersion } from './real-quotes-fingerprint';
import { RealQuotesReportService } from './real-quotes-report';
import { childProcessRunner, type RealQuotesRunner } from './real-quotes-runner';

/** The risk level the figures are computed at: the default level a new account starts with. */
export const realQuotesRisk = 1;

/** The folder of recorded quotes this server runs the robot on, if any (decision 142). */
export function recordedQuotesFolder(config: Config): string | undefined {
  const configured = config.RECORDED_QUOTES_DIR;
  if (configured === undefined) {
    return existsSync(defaultRecordedQuotesDir) ? defaultRecordedQuotesDir : undefined;
  }
  return configured.toLowerCase() === 'off' ? undefined : path.resolve(configured);
}

/** How the page names the quotes' source: as configured, else by what we know of the folder. */
function sourceName(config: Config, folder: string | undefined): string {
  if (config.RECORDED_QUOTES_SOURCE) return config.RECORDED_QUOTES_SOURCE;
  if (folder === defaultRecordedQuotesDir) return 'OANDA, via QuantConnect Lean';
  return folder === undefined ? '' : path.basename(folder);
}

/**
 * The robot on recorded real quotes for the track record (issue 36; decision 142): with
 * RECORDED_QUOTES_DIR (or the shared sample beside the repository), a child process at low CPU
 * priority computes the figures once the server is ready; they are kept in DATA_DIR/real-quotes.
 * Returns what the track record shows, as it stands.
 */
export function registerRealQuotes(
  app: FastifyInstance,
  config: Config,
  runner: RealQuotesRunner = childProcessRunner,
): () => RealQuotesReport {
  const folder = recordedQuotesFolder(config);
  const service = new RealQuotesReportService(
    {
      folder,
      source: sourceName(config, folder),
      cadence: config.RECORDED_QUOTES_CADENCE,
      risk: realQuotesRisk,
      nice: config.RECORDED_QUOTES_NICE,
      cacheDir: path.join(config.dataDir, 'real-quotes'),
    },
    {
      runner,
      fingerprint: folderFingerprint,
      robotVersion: robotCodeVersion,
      now: () => new Date(),
      onComputed: ({ figures, cpuMs, wallMs, fromCache }) => {
        app.log.info(
          { operations: figures.operations, quotes: figures.quotes, cpuMs, wallMs, fromCache },
          fromCache
            ? 'real quotes: the figures computed earlier for this data and robot are shown'
            : 'real quotes: the robot ran on the recorded quotes',
        );
      },
      onFailed: (error) => {
        app.log.error(
          { err: error, folder },
          'real quotes: the robot could not run on the recorded quotes; the track record says they are not available',
        );
      },
    },
  );
  app.addHook('onReady', async () => {
    service.start();
  });
  app.addHook('onClose', async () => {
    await service.stop();
  });
  return () => service.current();
}
