// Makes sure Debian's Chromium is there for the E2E tests; installs it with apt when
// missing and we are root. Never downloads a browser build of its own.
import { execSync } from 'node:child_process';
import fs from 'node:fs';

const wanted = process.env.CHROME_PATH ?? '/usr/bin/chromium';
if (fs.existsSync(wanted)) process.exit(0);
if (process.env.CHROME_PATH) {
  console.error(`CHROME_PATH=${wanted} does not exist.`);
  process.exit(1);
}
if (process.getuid?.() !== 0) {
  console.error('Chromium is missing. Install it with: sudo apt-get install -y chromium');
  process.exit(1);
}
console.log('Chromium is missing; installing it with apt-get (Debian package "chromium")...');
execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', {
  stdio: 'inherit',
});
