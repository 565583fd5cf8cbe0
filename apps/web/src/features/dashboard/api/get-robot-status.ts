import { useQuery, useQueryClient } from '@tanstack/react-query';
import { v1Paths, type RobotStatus } from '@tradebot/contract';
import { apiRequest } from '../../../lib/api-client';
import { receiveLive } from '../../../lib/live-trading';

/** How often the dashboard asks what the robot does per category (decision 147). */
export const robotStatusRefreshMs = 10_000;

export const robotStatusKey = ['trading', 'robot-status'] as const;

/** GET /api/v1/robot-status: get-all-data's `robot` alone. */
export async function getRobotStatus(signal?: AbortSignal): Promise<RobotStatus> {
  const body = await apiRequest<{ data: RobotStatus }>(`/api/v1${v1Paths.robotStatus}`, {
    ...(signal ? { signal } : {}),
  });
  return body.data;
}

/**
 * Keeps the robot's status current while the dashboard shows it (decision 147): asked every
 * `robotStatusRefreshMs` once get-all-data has answered, and merged into the live data like a
 * real-time event. A failed read leaves the last status shown.
 */
export function useRobotStatusRefresh(robot: RobotStatus | null) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: robotStatusKey,
    queryFn: async ({ signal }) => {
      const status = await getRobotStatus(signal);
      receiveLive(queryClient, { robot: status });
      return status;
    },
    enabled: robot !== null,
    staleTime: robotStatusRefreshMs,
    refetchInterval: robotStatusRefreshMs,
    retry: false,
  });
}
