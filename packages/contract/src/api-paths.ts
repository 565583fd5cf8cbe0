/** spec §7: every call goes to {host}/core-api/public, under /api/v1. */
export const apiBasePath = '/core-api/public';
export const apiV1Prefix = `${apiBasePath}/api/v1`;
