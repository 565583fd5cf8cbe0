// The trading store moved to src/stores/trading.ts (the dashboard, a feature, reads it); this
// path stays for the real-time client built on another branch, until it imports from there.
export { createTradingStore, useTradingStore } from '../../stores/trading';
