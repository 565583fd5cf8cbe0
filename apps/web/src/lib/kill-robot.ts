import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RobotSettingsView } from '@tradebot/contract';
import { apiRequest } from './api-client';

export interface KillSwitchResult {
  settings: RobotSettingsView;
  /** How many open operations it closed. */
  closed: number;
}

/** POST /api/v1/robot/kill: the robot goes off and every open operation closes at once. */
export async function killRobot(): Promise<KillSwitchResult> {
  const body = await apiRequest<{ data: KillSwitchResult }>('/api/v1/robot/kill', {
    method: 'POST',
  });
  return body.data;
}

export function useKillRobot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: killRobot,
    // Whatever the dashboard cached is out of date now.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['trading'] }),
  });
}
