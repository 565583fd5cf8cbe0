import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import type http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface LocalPushService {
  /** https://127.0.0.1:<port> (its certificate names localhost too) */
  readonly url: string;
  /** Its certificate, made for it: trust it with `new https.Agent({ ca: certificate })`. */
  readonly certificate: string;
  close(): Promise<void>;
}

/**
 * A push service on this machine (decision 088): HTTPS with a certificate made for it (openssl),
 * every POST handed to `onPush` with its body, answered with the status it returns (201 Created
 * for a live subscription, 404 or 410 for a gone one).
 */
export async function startLocalPushService(
  onPush: (request: http.IncomingMessage, body: Buffer) => number,
): Promise<LocalPushService> {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'push-service-'));
  const keyFile = path.join(folder, 'key.pem');
  const certFile = path.join(folder, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1,IP:::ffff:127.0.0.1,DNS:localhost',
      '-days',
      '1',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  const certificate = await fs.readFile(certFile, 'utf8');
  const key = await fs.readFile(keyFile, 'utf8');
  await fs.rm(folder, { recursive: true, force: true });
  const server = https.createServer({ key, cert: certificate }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      response.statusCode = onPush(request, Buffer.concat(chunks));
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${String((server.address() as AddressInfo).port)}`,
    certificate,
    close: () =>
      new Promise((resolve) => {
        server.close(() => {
          resolve();
        });
      }),
  };
}
