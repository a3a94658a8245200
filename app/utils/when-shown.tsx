import { lazy, memo, Suspense, type ComponentType } from "react";
import { reloadForChunkError } from "~/utils/chunk-reload";
import { useHydrated } from "~/utils/hydrated";

/** Every `whenShown` component of the modules loaded so far, by key: its code, loaded once. */
const registry = new Map<string, (() => Promise<void>)[]>();

/** entry.server.tsx waits for these before rendering, so the server never suspends on a `whenShown` component. */
export function shownComponentsReady(): Promise<unknown> {
  return Promise.all([...registry.values()].flat().map((start) => start()));
}

/** The attribute of the marker each shown component leaves in the page: its key. */
const markerAttribute = "data-shown";

/**
 * Before hydration (entry.client.tsx): loads the code of every `whenShown` component the server's HTML shows, and of
 * those they show in turn, so hydration finds each one ready. A boundary whose code was still loading would stay the
 * server's HTML while it loads, and an update reaching it then makes React throw that HTML away (React error #421):
 * Remix's own location state updates its context outside a transition when a navigation or a form's submit ends.
 * A component whose code fails to load is left to its boundary.
 */
export async function preloadShownComponents(): Promise<void> {
  // Three rounds: a component's module may register the shown components it renders (two levels deep today). The first
  // waits a task: the entry shares its chunk with the root route and starts before the route modules have registered theirs.
  for (let round = 0; round < 3; round++) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    const starts = [...document.querySelectorAll(`template[${markerAttribute}]`)].flatMap((marker) => registry.get(marker.getAttribute(markerAttribute)!) ?? []);
    await Promise.all(starts.map((start) => start().catch(() => undefined)));
  }
}

/**
 * A component that only some pages show (an error, a reminder, a first visit's warning), for components the
 * app shell would otherwise load on every page. The server renders it as it is (its module is loaded at start);
 * the browser loads its code when a page shows it: before hydrating for what the server's HTML shows
 * (preloadShownComponents finds the `<template data-shown>` marker each one leaves, inert and invisible), on
 * demand after that. A client-side render shows nothing until the code arrives. `key` names it in the marker:
 * one per component (two `whenShown` of one component may share it).
 */
export function whenShown<P extends object>(key: string, load: () => Promise<ComponentType<P>>): ComponentType<P> {
  let loaded: ComponentType<P> | null = null;
  let failure: { error: unknown } | null = null;
  let pending: Promise<void> | null = null;
  const start = (): Promise<void> =>
    (pending ??= load().then(
      (component) => {
        loaded = component;
      },
      (error: unknown) => {
        // A chunk that fails to load reloads the page once (docs/product.md §8); else the error reaches the error boundary.
        if (reloadForChunkError(error)) return new Promise<never>(() => {});
        failure = { error };
        throw error;
      },
    ));
  registry.set(key, [...(registry.get(key) ?? []), start]);
  if (import.meta.env.SSR) void start().catch(() => undefined);
  function Loaded(props: P) {
    if (failure) throw failure.error;
    // Suspends (the boundary below) until the code is here: on the server never, entry.server.tsx waits for it.
    if (!loaded) throw start();
    const Component = loaded;
    return <Component {...props} />;
  }
  // Memoised: a parent's synchronous re-render (typing in the chat's composer) with the same props leaves it alone.
  return memo(function Shown(props: P) {
    return (
      <>
        <template {...{ [markerAttribute]: key }} />
        <Suspense fallback={null}>
          <Loaded {...props} />
        </Suspense>
      </>
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
