import { describe, expect, it } from 'vitest';
import type { SettingsRow } from '../repositories/users.repository';
import { AccessChangesService } from './access-changes.service';

/** The service with plain stubs of its ports: the steps it took, in order. */
function rig(flags: Partial<SettingsRow> = {}, lapsed: string[] = []) {
  const steps: string[] = [];
  const step = (what: string) => {
    steps.push(what);
    return Promise.resolve();
  };
  const service = new AccessChangesService({
    users: {
      userChanged: (id) => step(`userChanged ${id}`),
      findSettings: (id) =>
        Promise.resolve({
          userId: id,
          linked: true,
          botOn: true,
          authorized: false,
          ...flags,
        } as SettingsRow),
    },
    endLapsedAccess: () => {
      steps.push('endLapsedAccess');
      return Promise.resolve(lapsed);
    },
    grantsChanged: () => step('grantsChanged'),
    applyStoredSettings: (id) => step(`applyStoredSettings ${id}`),
    tellAccessEnded: (id) => step(`tellAccessEnded ${id}`),
  });
  return { service, steps };
}

describe('AccessChangesService', () => {
  it('ends lapsed access before dropping each user from the cache, and returns them', async () => {
    const { service, steps } = rig({}, ['u1', 'u2']);
    expect(await service.endLapsedWhileDown(new Date())).toEqual(['u1', 'u2']);
    expect(steps).toEqual(['endLapsedAccess', 'userChanged u1', 'userChanged u2']);
  });

  it('tells only a user whose switched-on robot on a linked account lost access', async () => {
    for (const [flags, told] of [
      [{}, true],
      [{ authorized: true }, false],
      [{ botOn: false }, false],
      [{ linked: false }, false],
    ] as const) {
      const { service, steps } = rig(flags);
      await service.tellIfAccessStoppedRobot('u1');
      expect(steps).toEqual(told ? ['tellAccessEnded u1'] : []);
    }
  });

  it('applies the stored settings before telling of an access change', async () => {
    const { service, steps } = rig();
    await service.accessChanged('u1');
    expect(steps).toEqual(['applyStoredSettings u1', 'tellAccessEnded u1']);
  });

  it('on a link change syncs the robot before applying the settings', async () => {
    const { service, steps } = rig();
    await service.linkChanged('u1');
    expect(steps).toEqual(['userChanged u1', 'grantsChanged', 'applyStoredSettings u1']);
    const refreshed = rig();
    await refreshed.service.tokenRefreshed();
    expect(refreshed.steps).toEqual(['grantsChanged']);
  });
});
