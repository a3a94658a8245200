import { createElement, lazy, memo, Suspense, useState, type ComponentType } from "react";
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
 * those they show in turn, so that hydration finds each one ready and renders it as the server did, without a Suspense
 * boundary (see `whenShown`). Rejects when one's code fails to load (a chunk error reloads the page first, once): the
 * page then stays as the server rendered it, since hydrating would not find that part as the server rendered it.
 */
export async function preloadShownComponents(): Promise<void> {
  // Three rounds: a component's module may register the shown components it renders (two levels deep today; a deeper
  // one needs a round more). The first waits a task: the entry shares its chunk with the root route and starts before
  // the route modules have registered theirs.
  for (let round = 0; round < 3; round++) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    const starts = [...document.querySelectorAll(`template[${markerAttribute}]`)].flatMap((marker) => registry.get(marker.getAttribute(markerAttribute)!) ?? []);
    await Promise.all(starts.map((start) => start()));
  }
}

/**
 * A component that only some pages show (an error, a reminder, a first visit's warning), for components the
 * app shell would otherwise load on every page. The server renders it as it is (its module is loaded at start);
 * the browser loads its code when a page shows it: before hydrating for what the server's HTML shows
 * (preloadShownComponents finds the `<template data-shown>` marker each one leaves, inert and invisible), on
 * demand after that. A client-side render shows nothing until the code arrives. `key` names it in the marker:
 * one per component (two `whenShown` of one component may share it).
 *
 * Only a client-side mount before the code has arrived has a Suspense boundary (for the component's lifetime). Where
 * the code is there when it mounts (always on the server; while hydrating, preloaded) there is none, so the component
 * hydrates with the rest of the page. React 18 hydrates a server-rendered boundary later, in a pass of its own at idle
 * priority, and an update that reaches it before that pass makes React give up its HTML (React error #421), even when
 * its code is here: Remix's router state reaches every boundary when the route discovery patches the routes after
 * hydration, when a submit starts and when it ends (then outside a transition).
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
    // Suspends (the boundary below) until the code is here: on the server and while hydrating never (see above).
    if (!loaded) throw start();
    return createElement(loaded, props);
  }
  // Memoised: a parent's synchronous re-render (typing in the chat's composer) with the same props leaves it alone.
  return memo(function Shown(props: P) {
    // Decided once: a boundary that came or went later would mount the component again.
    const [ready] = useState(() => loaded || failure);
    const shown = <Loaded {...props} />;
    return (
      <>
        <template {...{ [markerAttribute]: key }} />
        {ready ? shown : <Suspense>{shown}</Suspense>}
      </>
    );
  }) as unknown as ComponentType<P>;
}

/**
 * A component that renders nothing on the server and until the page is hydrated (a live stream, a timer, a button
 * for installed apps only): its code loads after hydration instead of with every page, so it costs the page's
 * first load nothing (docs/performance-history.md, the 100 kB budget).
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
      <Suspense>
        <Component {...props} />
      </Suspense>
    );
  };
}
