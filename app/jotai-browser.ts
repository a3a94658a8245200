import { createContext, createElement, useCallback, useContext, useState, useSyncExternalStore, type ReactNode } from "react";

/**
 * The browser's jotai for primitive atoms (ADR 005): vite.config.ts points the client build's `jotai`,
 * `jotai/react` and `jotai/vanilla` here (real jotai costs ~4 KB gzip of every page's first load for
 * the one atom the app has); the server keeps real jotai. It offers `atom(initialValue)`, `useAtom`,
 * `useAtomValue`, `useSetAtom`, `Provider` and stores. Anything else jotai has (derived or async atoms,
 * jotai/utils) fails the client build or throws: remove the alias in vite.config.ts to use it.
 */

export type PrimitiveAtom<Value> = { readonly init: Value; toString(): string };
type SetStateAction<Value> = Value | ((previous: Value) => Value);

let atoms = 0;

export function atom<Value>(initialValue: Value): PrimitiveAtom<Value> {
  if (typeof initialValue === "function") throw new Error("app/jotai-browser.ts has primitive atoms only (ADR 005)");
  const key = `atom${++atoms}`;
  return { init: initialValue, toString: () => key };
}

export class Store {
  private readonly values = new Map<PrimitiveAtom<unknown>, unknown>();
  private readonly listeners = new Map<PrimitiveAtom<unknown>, Set<() => void>>();

  get<Value>(target: PrimitiveAtom<Value>): Value {
    return (this.values.has(target) ? this.values.get(target) : target.init) as Value;
  }

  set<Value>(target: PrimitiveAtom<Value>, action: SetStateAction<Value>): void {
    const previous = this.get(target);
    const next = typeof action === "function" ? (action as (previous: Value) => Value)(previous) : action;
    if (Object.is(next, previous)) return;
    this.values.set(target, next);
    for (const listener of this.listeners.get(target) ?? []) listener();
  }

  sub<Value>(target: PrimitiveAtom<Value>, listener: () => void): () => void {
    let set = this.listeners.get(target);
    if (!set) this.listeners.set(target, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }
}

export const createStore = () => new Store();
const defaultStore = new Store();
export const getDefaultStore = () => defaultStore;

const StoreContext = createContext<Store | null>(null);

export function Provider({ store, children }: { store?: Store; children?: ReactNode }) {
  const [own] = useState(() => store ?? new Store());
  return createElement(StoreContext.Provider, { value: store ?? own }, children);
}

export function useStore(): Store {
  return useContext(StoreContext) ?? defaultStore;
}

export function useAtomValue<Value>(target: PrimitiveAtom<Value>): Value {
  const store = useStore();
  const subscribe = useCallback((listener: () => void) => store.sub(target, listener), [store, target]);
  const read = () => store.get(target);
  return useSyncExternalStore(subscribe, read, read);
}

export function useSetAtom<Value>(target: PrimitiveAtom<Value>): (action: SetStateAction<Value>) => void {
  const store = useStore();
  return useCallback((action: SetStateAction<Value>) => store.set(target, action), [store, target]);
}

export function useAtom<Value>(target: PrimitiveAtom<Value>): [Value, (action: SetStateAction<Value>) => void] {
  return [useAtomValue(target), useSetAtom(target)];
}
