import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { openDatabase, pgliteDirectory, type Database } from '../../db/database';
import { migrate, readMigrations } from '../../db/migrate';
import { EventBus } from '../../composition/events';
import { JobRegistry } from '../../composition/jobs';
import { publicLinks, type PublicLinks } from '../../composition/links';
import { CachedUsersRepository } from '../../repositories/cached-users.repository';
import { systemClock, type Clock } from '../../repositories/clock';
import {
  DrizzleJobClaims,
  processName,
  type JobClaims,
} from '../../repositories/job-claims.repository';
import { fileMailer, smtpMailer, type Mailer } from '../../repositories/mail.repository';
import { Secrets } from '../../repositories/secrets';
import type { SessionCache } from '../../repositories/session-cache';
import type { Transact } from '../../repositories/transaction';
import type { Services } from '../services';
import { loadSealingKeys, type SealingKeys } from './keys';
import { createSessionCache } from './session-cache';

export interface FoundationOptions {
  config: Config;
  /** Where the migrations are (beside src/ and dist/ alike, so app.ts names it). */
  migrationsFolder: string;
  /** A database the caller owns (tests); otherwise one is opened from the config. */
  database?: Database | undefined;
  clock?: Clock | undefined;
  /** Otherwise SMTP when SMTP_URL is set, else .eml files under DATA_DIR/mail. */
  mailer?: Mailer | undefined;
  /** How long a claimed timed item is this process's before another may retry it (decision 078). */
  jobLeaseMs?: number | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    database: Database;
    /** The settings it was built with (read-only; tests find DATA_DIR/mail through it). */
    config: Config;
    clock: Clock;
    transact: Transact;
    mailer: Mailer;
    secrets: Secrets;
    keys: SealingKeys;
    sessionCache: SessionCache;
    /** The users' store, through the session cache. */
    users: CachedUsersRepository;
    /** This process's name in job claims and account leases (decisions 078 and 092). */
    owner: string;
    jobClaims: JobClaims;
    events: EventBus;
    links: PublicLinks;
  }
}

function createMailer(config: Config, app: FastifyInstance): Mailer {
  if (config.SMTP_URL) return smtpMailer(config.SMTP_URL, config.MAIL_FROM);
  return fileMailer(path.join(config.dataDir, 'mail'), config.MAIL_FROM, (file, message) => {
    app.log.info({ file, to: message.to, subject: message.subject }, 'e-mail written');
  });
}

/**
 * What every capability stands on: the database (migrated), the sealing keys (checked), mail,
 * the session cache and the users' store, job claims, the event bus, the job registry and the
 * links we hand out.
 */
export const foundation = fp(
  async (app: FastifyInstance, options: FoundationOptions) => {
    const { config } = options;
    const ownsDatabase = !options.database;
    const database =
      options.database ??
      (await openDatabase({
        databaseUrl: config.DATABASE_URL,
        pgliteDir: pgliteDirectory(config.dataDir),
      }));
    app.decorate('database', database);
    app.decorate('config', config);
    if (ownsDatabase) {
      app.addHook('onClose', async () => {
        await database.close();
      });
      const applied = await migrate(database.db, await readMigrations(options.migrationsFolder));
      if (applied.length > 0) app.log.info({ applied }, 'database migrated');
    }
    const { db } = database;
    const clock = options.clock ?? systemClock;
    app.decorate('clock', clock);
    app.decorate('transact', ((work) => db.transaction(work)) satisfies Transact);
    try {
      app.decorate('keys', await loadSealingKeys(config, app, db, clock.now()));
    } catch (error) {
      if (ownsDatabase) await database.close();
      throw error;
    }
    const mailer = options.mailer ?? createMailer(config, app);
    app.addHook('onClose', async () => {
      await mailer.close();
    });
    app.decorate('mailer', mailer);
    app.decorate('secrets', new Secrets(config.TOKEN_SECRET));
    const sessionCache = createSessionCache(config, app);
    app.decorate('sessionCache', sessionCache);
    app.decorate('users', new CachedUsersRepository(db, sessionCache));
    const owner = processName();
    app.decorate('owner', owner);
    // Timed items (webhook deliveries, receipts, gifts) are claimed before they are done, so each
    // is done by one of the processes sharing the database (decision 078).
    app.decorate(
      'jobClaims',
      new DrizzleJobClaims(db, owner, options.jobLeaseMs, (job, item) => {
        app.log.error({ job, item }, 'jobs: an item whose two runs died is left undone');
      }),
    );
    const events = new EventBus();
    app.decorate('events', events);
    // A session that ends is dropped from every process's cache before its sockets close.
    events.on('SessionsRevoked', (revoked) =>
      sessionCache.changed(
        'sessionId' in revoked
          ? { kind: 'session', sessionId: revoked.sessionId }
          : { kind: 'userSessions', userId: revoked.userId },
      ),
    );
    app.decorate('jobs', new JobRegistry(app.log));
    app.decorate('links', publicLinks(config, app));
    app.decorate('services', {} as Services);
  },
  { name: 'foundation' },
);
