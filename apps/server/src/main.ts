import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { argon2PasswordHasher } from './repositories/password-hasher';
import { PlatformUsersRepository } from './repositories/platform-users.repository';
import { UsersRepository } from './repositories/users.repository';
import { PromoCodesRepository } from './repositories/promo-codes.repository';
import { demoPromoCode, demoUser, seedDemo, seedDemoTrading } from './services/demo-seed.service';
import exampleBrokers from '../brokers/example-directory.json';

const shutdownGraceMs = 10_000;

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

async function main() {
  const config = readConfig();
  const app = await buildApp(config);

  if (config.SEED_DEMO) {
    const created = await seedDemo(
      new UsersRepository(app.database.db),
      new PromoCodesRepository(app.database.db),
      argon2PasswordHasher,
    );
    const trading = app.robot
      ? await seedDemoTrading(
          new UsersRepository(app.database.db),
          new PlatformUsersRepository(app.database.db),
          app.robot,
          new Date(),
        )
      : false;
    // Made-up brokers, labelled as examples, until the operator loads a real directory.
    const exampleDirectory = await app.services.brokerSearch.loadExamplesIfEmpty(exampleBrokers);
    app.log.info(
      { email: demoUser.email, created, promocode: demoPromoCode.code, trading, exampleDirectory },
      'demo ready',
    );
  }

  // Stop accepting, let in-flight requests finish, then close the database (onClose hooks).
  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, shutdownGraceMs);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  // `on`, not `once`: a second signal (an impatient supervisor, Ctrl-C twice) must find this
  // handler, which ignores it, rather than Node's default, which exits at once without
  // releasing the accounts this process holds (they would wait out their lease).
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);

  const address = await app.listen({ port: config.PORT, host: config.HOST });
  const { port } = new URL(address);
  if (config.SEED_DEMO) {
    console.log(`demo login: ${demoUser.email} / ${demoUser.password}`);
    console.log(`demo promo code: ${demoPromoCode.code}`);
  }
  // Printed last: scripts and tests wait for this line.
  console.log(`listening on http://${config.HOST}:${port}`);
}

main().catch((error: unknown) => {
  console.error('failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
