import { lazy, memo, Suspense, type ComponentType } from "react";
import { reloadForChunkError } from "~/utils/chunk-reload";
import { useHydrated } from "~/utils/hydrated";

const serverLoads: Promise<unknown>[] = [];

/** entry.server.tsx waits for these before rendering, so the server never suspends on a `whenShown` component. */
export function shownComponentsReady(): Promise<unknown> {
  return Promise.all(serverLoads);
}

/**
 * A component that only some pages show (an error, a reminder, a first visit's warning), for components the
 * app shell would otherwise load on every page. The server renders it as it is (its module is loaded at start);
 * the browser loads its code when a page shows it. While that code loads, React keeps the server's HTML of a
 * hydrating page (the Suspense boundary): nothing flickers or mismatches. A client-side render shows nothing
 * until it arrives.
 */
export function whenShown<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  let Component: ComponentType<P>;
  if (import.meta.env.SSR) {
    let loaded: ComponentType<P> | null = null;
    const pending = load().then((component) => {
      loaded = component;
    });
    serverLoads.push(pending);
    Component = function Loaded(props: P) {
      if (!loaded) throw pending;
      const Loaded = loaded;
      return <Loaded {...props} />;
    };
  } else {
    // A lazy component takes the props of the one it loads; React's types cannot say so for a generic P.
    // A chunk that fails to load reloads the page once (docs/product.md §8); else the error reaches the error boundary.
    Component = lazy(() =>
      load().then(
        (component) => ({ default: component }),
        (error: unknown) => {
          if (reloadForChunkError(error)) return new Promise<never>(() => {});
          throw error;
        },
      ),
    ) as unknown as ComponentType<P>;
  }
  // Memoised: while its code loads, a boundary React is still hydrating must not receive an update. A parent's
  // synchronous re-render (typing in the chat's composer) with the same props then leaves it alone instead of
  // making React give up its server HTML (React error #421).
  return memo(function Shown(props: P) {
    return (
      <Suspense fallback={null}>
        <Component {...props} />
      </Suspense>
    );
  }) as unknown as ComponentType<P>;
}

/**
 * A component that renders nothing on the server and until the page is hydrated (a live stream, a timer, a button
 * for installed apps only): its code loads after hydration instead of with every page, so it costs the page's
 * first load nothing (docs/performance.md, the 100 kB budget).
 */
export function afterHydration<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Component = lazy(() =>
    load().then(
      (component) => ({ default: component }),
      (error: unknown) => {
        if (reloadForChunkError(error)) return new Promise<never>(() => {});
        throw error;
      },
    ),
  ) as unknown as ComponentType<P>;
  return function AfterHydration(props: P) {
    if (!useHydrated()) return null;
    return (
      <Suspense fallback={null}>
        <Component {...props} />
      </Suspense>
    );
  };
}
