// Shared with /payment and the billing section since issue 22: the hook lives in src/lib.
export {
  promocodeDebounceMs,
  promocodeRefused,
  usePromocodeStatus,
  type PromocodeStatus,
} from '../../../lib/use-promocode-status';
