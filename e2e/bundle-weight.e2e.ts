import { describe, expect, it } from 'vitest';
import { homeInitialWeight } from './support/bundle-weight';

describe('the home route initial JavaScript (docs/decisions/033)', () => {
  it('stays at or under 120 KB gzip', () => {
    const weight = homeInitialWeight();
    const kilobytes = weight.gzipBytes / 1024;
    console.info(
      `home initial JS: ${kilobytes.toFixed(2)} KB gzip in ${String(weight.files.length)} files`,
    );
    expect(kilobytes).toBeLessThanOrEqual(120);
  });

  it('keeps zod and the form code out of it', async () => {
    const fs = await import('node:fs');
    const path = await import('node:path');
    const { webDist } = await import('./support/bundle-weight');
    for (const file of homeInitialWeight().files) {
      const source = fs.readFileSync(path.join(webDist, file.file), 'utf8');
      expect(source, file.file).not.toContain('ZodType');
    }
  });
});
