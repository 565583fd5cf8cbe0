// The auth store moved to src/stores/auth.ts (robot settings, a feature, keeps it in step);
// this path stays for the real-time client built on another branch, until it imports from there.
export { createAuthStore, useAuthStore } from '../../stores/auth';
