// A worker thread of `npm run bench:realtime`: holds a share of the clients, as separate
// browsers would, and reports when each event arrived (process.hrtime, the clock the server
// process reads too). Messages: connect {clients: [{key, url, token}]} -> connected;
// every event -> arrival {key, fillId, at}; close -> closed.
import { parentPort } from 'node:worker_threads';
import { io } from 'socket.io-client';

const eventName = 'trading-data';
const realtimePath = '/core-api/realtime';
const concurrency = 100;
const sockets = [];

function connect({ key, url, token }) {
  return new Promise((resolve, reject) => {
    const socket = io(url, {
      path: realtimePath,
      transports: ['websocket'],
      forceNew: true,
      reconnection: false,
      auth: token ? { token } : {},
    });
    socket.on(eventName, (event) => {
      const at = process.hrtime.bigint();
      const info = typeof event.info === 'string' ? JSON.parse(event.info) : event.info;
      parentPort.postMessage({ type: 'arrival', key, fillId: info.trades[0].id, at });
    });
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

parentPort.on('message', async (message) => {
  if (message.type === 'connect') {
    for (let start = 0; start < message.clients.length; start += concurrency) {
      const batch = message.clients.slice(start, start + concurrency);
      sockets.push(...(await Promise.all(batch.map(connect))));
    }
    parentPort.postMessage({ type: 'connected', count: sockets.length });
  } else if (message.type === 'close') {
    for (const socket of sockets.splice(0)) socket.close();
    parentPort.postMessage({ type: 'closed' });
  }
});
