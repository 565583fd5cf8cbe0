import { describe, expect, it } from 'vitest';
import { EventBus } from './events';

describe('EventBus', () => {
  it('runs the listeners one after another in the order they subscribed, and publish waits for the last', async () => {
    const bus = new EventBus();
    const steps: string[] = [];
    bus.on('SessionsRevoked', async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      steps.push('cache');
    });
    bus.on('SessionsRevoked', () => {
      steps.push('sockets');
    });
    await bus.publish('SessionsRevoked', { userId: 'u1' });
    expect(steps).toEqual(['cache', 'sockets']);
  });

  it("a listener's failure is the publisher's", async () => {
    const bus = new EventBus();
    bus.on('AccessChanged', () => Promise.reject(new Error('robot down')));
    await expect(bus.publish('AccessChanged', { userId: 'u1' })).rejects.toThrow('robot down');
  });

  it('an unsubscribed listener hears nothing more', async () => {
    const bus = new EventBus();
    const heard: string[] = [];
    const off = bus.on('BrokerLinked', ({ userId }) => {
      heard.push(userId);
    });
    await bus.publish('BrokerLinked', { userId: 'a' });
    off();
    await bus.publish('BrokerLinked', { userId: 'b' });
    expect(heard).toEqual(['a']);
  });
});
