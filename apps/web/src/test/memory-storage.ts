/** A Storage in memory, installed as globalThis.localStorage (and sessionStorage) for a test. */
export function installMemoryStorage(): () => void {
  const previous = {
    local: Object.getOwnPropertyDescriptor(globalThis, 'localStorage'),
    session: Object.getOwnPropertyDescriptor(globalThis, 'sessionStorage'),
  };
  const make = (): Storage => {
    const items = new Map<string, string>();
    return {
      get length() {
        return items.size;
      },
      clear: () => {
        items.clear();
      },
      getItem: (key) => items.get(key) ?? null,
      key: (index) => [...items.keys()][index] ?? null,
      removeItem: (key) => {
        items.delete(key);
      },
      setItem: (key, value) => {
        items.set(key, value);
      },
    };
  };
  Object.defineProperty(globalThis, 'localStorage', { value: make(), configurable: true });
  Object.defineProperty(globalThis, 'sessionStorage', { value: make(), configurable: true });
  return () => {
    for (const [name, descriptor] of [
      ['localStorage', previous.local],
      ['sessionStorage', previous.session],
    ] as const) {
      if (descriptor) Object.defineProperty(globalThis, name, descriptor);
      else Reflect.deleteProperty(globalThis, name);
    }
  };
}
